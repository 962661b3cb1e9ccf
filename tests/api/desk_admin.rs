//! Administration at the desk, staff (screen 10): an admin adds a staff member whose password
//! is shown once and who then signs in; changes a role, resets a password and disables
//! someone, each ending that person's sessions; cannot lock themselves out; other roles are
//! refused. A staff member changes their own password. In a real browser too, with axe.

use fantoccini::Locator;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::{TestApp, spawn_app};

/// The password on a "shown once" page.
fn shown_password(page: &str) -> String {
    let start = page.find("<code>").expect("a password") + "<code>".len();
    let end = page[start..].find("</code>").unwrap();
    page[start..start + end].to_string()
}

/// The id in `/admin/staff/{id}` for `name` on the staff list.
async fn staff_id(b: &Browser, name: &str) -> String {
    let list = b.get("/admin/staff").await;
    let main = list.text.find("<main").unwrap();
    let at = main
        + list.text[main..]
            .find(&format!("\">{name}</a>"))
            .expect(name);
    let start = list.text[..at].rfind("/admin/staff/").unwrap() + "/admin/staff/".len();
    list.text[start..at].to_string()
}

/// Whether a browser's session still opens the desk.
async fn signed_in(b: &Browser) -> bool {
    b.get("/guests").await.status == 200
}

async fn admin(app: &TestApp) -> Browser {
    let password = staff(app, "root", "admin").await;
    Browser::sign_in(app, "root", &password).await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_adds_staff_who_then_sign_in() {
    let app = spawn_app().await;
    let a = admin(&app).await;
    let home = a.get("/admin").await;
    assert_eq!(home.status, 200, "{}", home.text);
    assert!(home.text.contains("href=\"/admin/staff\""));
    let list = a.get("/admin/staff").await;
    assert_eq!(list.status, 200);
    assert!(list.text.contains(">root</a>"));
    let csrf = Browser::csrf(&list);

    // No name: said next to the field, the role kept.
    let bad = a
        .post(
            "/admin/staff",
            &[("csrf", &csrf), ("username", " "), ("role", "housekeeping")],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(bad.text.contains("id=\"username-error\""));
    assert!(
        bad.text
            .contains("<option value=\"housekeeping\" selected>")
    );

    let added = a
        .post(
            "/admin/staff",
            &[
                ("csrf", &csrf),
                ("username", "marta"),
                ("role", "front_desk"),
            ],
        )
        .await;
    assert_eq!(added.status, 200, "{}", added.text);
    assert_eq!(added.header("cache-control").as_deref(), Some("no-store"));
    assert!(added.text.contains("marta is added"));
    let password = shown_password(&added.text);
    assert_eq!(password.len(), 19, "{password}");
    // The same name again: refused next to the name.
    let twice = a
        .post(
            "/admin/staff",
            &[("csrf", &csrf), ("username", "Marta"), ("role", "manager")],
        )
        .await;
    assert_eq!(twice.status, 422);
    assert!(twice.text.contains("already exists"), "{}", twice.text);
    assert!(twice.text.contains("value=\"Marta\""));

    let m = Browser::sign_in(&app, "marta", &password).await;
    let today = m.get("/").await;
    assert!(
        today.text.contains("Signed in as marta (front desk)"),
        "{}",
        today.text
    );
    assert!(
        !today.text.contains("href=\"/admin\""),
        "no administration for the front desk"
    );
    for path in ["/admin", "/admin/staff"] {
        assert_eq!(m.get(path).await.status, 403, "{path}");
    }
    let mcsrf = Browser::csrf(&today);
    let refused = m
        .post(
            "/admin/staff",
            &[("csrf", &mcsrf), ("username", "eve"), ("role", "admin")],
        )
        .await;
    assert_eq!(refused.status, 403, "{}", refused.text);
    assert!(!a.get("/admin/staff").await.text.contains(">eve</a>"));
}

#[tokio::test(flavor = "multi_thread")]
async fn role_password_and_disabling_end_the_sessions_and_admins_cannot_lock_themselves_out() {
    let app = spawn_app().await;
    let a = admin(&app).await;
    let password = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &password).await;
    let id = staff_id(&a, "marta").await;
    let page = a.get(&format!("/admin/staff/{id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    let csrf = Browser::csrf(&page);
    let act = |what: &str| format!("/admin/staff/{id}/{what}");

    // A role: her session ends; signed in again, she has the new one.
    let role = a
        .post(&act("role"), &[("csrf", &csrf), ("role", "housekeeping")])
        .await;
    assert_eq!(role.status, 303, "{}", role.text);
    assert!(!signed_in(&m).await, "her session ended");
    let changed = a.get(&role.header("location").unwrap()).await;
    assert!(changed.text.contains("The role is changed."));
    let m = Browser::sign_in(&app, "marta", &password).await;
    let hk = m.get("/housekeeping").await;
    assert!(
        hk.text.contains("Signed in as marta (housekeeping)"),
        "{}",
        hk.text
    );
    assert_eq!(m.get("/guests").await.status, 403);

    // A new password, only with the tick; the old one no longer signs in.
    let untick = a.post(&act("password"), &[("csrf", &csrf)]).await;
    assert_eq!(untick.status, 422);
    assert!(untick.text.contains("Tick the box"));
    let reset = a
        .post(&act("password"), &[("csrf", &csrf), ("confirm", "yes")])
        .await;
    assert_eq!(reset.status, 200, "{}", reset.text);
    assert!(reset.text.contains("A new password for marta"));
    let fresh = shown_password(&reset.text);
    assert!(
        m.get("/housekeeping").await.status != 200,
        "signed out by the reset"
    );
    let m = Browser::sign_in(&app, "marta", &fresh).await;

    // Disabled: out at once; enabled: in again.
    let off = a
        .post(&act("disable"), &[("csrf", &csrf), ("confirm", "yes")])
        .await;
    assert_eq!(off.status, 303, "{}", off.text);
    assert_ne!(m.get("/housekeeping").await.status, 200);
    assert!(
        a.get(&format!("/admin/staff/{id}"))
            .await
            .text
            .contains("disabled since")
    );
    let on = a
        .post(&act("enable"), &[("csrf", &csrf), ("confirm", "yes")])
        .await;
    assert_eq!(on.status, 303);
    let m = Browser::sign_in(&app, "marta", &fresh).await;
    assert_eq!(m.get("/housekeeping").await.status, 200);

    // The admin's own page offers no actions, and a crafted post is refused in words.
    let me = staff_id(&a, "root").await;
    let mine = a.get(&format!("/admin/staff/{me}")).await;
    assert!(mine.text.contains("This is you."));
    assert!(!mine.text.contains("/disable\""));
    let own = format!("/admin/staff/{me}/disable");
    let no = a.post(&own, &[("csrf", &csrf), ("confirm", "yes")]).await;
    assert_eq!(no.status, 409, "{}", no.text);
    assert!(no.text.contains("another admin can"), "{}", no.text);
    let no = a
        .post(
            &format!("/admin/staff/{me}/role"),
            &[("csrf", &csrf), ("role", "manager")],
        )
        .await;
    assert_eq!(no.status, 409);
    assert!(signed_in(&a).await);
    assert_eq!(a.get("/admin/staff/usr_nobody").await.status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_staff_member_changes_their_own_password() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &password).await;
    let other = Browser::sign_in(&app, "marta", &password).await;
    let page = m.get("/account/password").await;
    assert_eq!(page.status, 200, "{}", page.text);
    let csrf = Browser::csrf(&page);
    let wrong = m
        .post(
            "/account/password",
            &[
                ("csrf", &csrf),
                ("current", "nope"),
                ("new", "short"),
                ("repeat", "other"),
            ],
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    for id in ["current-error", "new-error", "repeat-error"] {
        assert!(
            wrong.text.contains(&format!("id=\"{id}\"")),
            "{id}: {}",
            wrong.text
        );
    }
    assert!(wrong.text.contains("This is not your password now."));
    let new = "a quiet room by the sea";
    let done = m
        .post(
            "/account/password",
            &[
                ("csrf", &csrf),
                ("current", &password),
                ("new", new),
                ("repeat", new),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let after = m.get(&done.header("location").unwrap()).await;
    assert!(
        after.text.contains("Your password is changed."),
        "{}",
        after.text
    );
    assert!(signed_in(&m).await, "this session stays");
    assert!(!signed_in(&other).await, "the other one ends");
    Browser::sign_in(&app, "marta", new).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_an_admin_adds_a_receptionist_who_signs_in() {
    let Some(b) = chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let password = staff(&app, "root", "admin").await;
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "root", &password).await;
    let c = &b.client;
    c.goto(&format!("{base}/admin")).await.unwrap();
    b.axe("Administration").await;
    b.screenshot("desk-admin").await;
    b.click(Locator::LinkText("Staff")).await;
    let name = b.wait_for(Locator::Id("username")).await;
    b.axe("Staff").await;
    name.send_keys("luca").await.unwrap();
    b.click(Locator::Css("#role option[value=front_desk]"))
        .await;
    b.screenshot("desk-admin-staff").await;
    b.click(Locator::Css(
        "form[action='/admin/staff'] button[type=submit]",
    ))
    .await;
    let code = b.wait_for(Locator::Css(".password-once code")).await;
    let made = code.text().await.unwrap();
    b.axe("A password shown once").await;
    b.screenshot("desk-admin-password-once").await;
    b.click(Locator::LinkText("Done, back to the staff member"))
        .await;
    b.wait_for(Locator::Id("confirm-disable")).await;
    b.axe("A staff member").await;
    b.screenshot("desk-admin-staff-member").await;
    c.goto(&format!("{base}/admin/settings")).await.unwrap();
    b.wait_for(Locator::Id("city_tax")).await;
    b.axe("The property's settings").await;
    b.screenshot("desk-admin-settings").await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    c.goto(&format!("{base}/admin/rooms")).await.unwrap();
    b.wait_for(Locator::LinkText("101")).await;
    b.axe("Rooms").await;
    b.screenshot("desk-admin-rooms").await;
    c.goto(&format!("{base}/admin/rooms/{room}")).await.unwrap();
    b.wait_for(Locator::Id("housekeeping_status")).await;
    b.axe("A room").await;
    c.goto(&format!("{base}/admin/room-types/{rt}"))
        .await
        .unwrap();
    b.wait_for(Locator::Id("base_rate")).await;
    b.axe("A room type").await;
    c.goto(&format!("{base}/admin/clients")).await.unwrap();
    b.wait_for(Locator::Id("code")).await;
    b.click(Locator::Css("details.change summary")).await;
    b.axe("API clients and devices").await;
    b.screenshot("desk-admin-clients").await;
    c.goto(&format!("{base}/admin/clients/cli_desk"))
        .await
        .unwrap();
    b.wait_for(Locator::Id("rate_burst")).await;
    b.axe("An API client").await;
    c.goto(&format!("{base}/admin/webhooks")).await.unwrap();
    b.wait_for(Locator::Id("url")).await;
    b.axe("Webhooks").await;
    let hook = app
        .post(
            "/v1/webhooks",
            serde_json::json!({"url": "http://127.0.0.1:9/hooks", "events": ["*"]}),
        )
        .await
        .expect(201)
        .id();
    app.post(&format!("/v1/webhooks/{hook}/test"), serde_json::json!({}))
        .await
        .expect(202);
    c.goto(&format!("{base}/admin/webhooks/{hook}"))
        .await
        .unwrap();
    b.wait_for(Locator::Id("confirm-rotate")).await;
    b.axe("A webhook endpoint").await;
    b.screenshot("desk-admin-webhook").await;
    // Sign out, and luca signs in with what was shown.
    b.click(Locator::Css("form.signout button")).await;
    b.wait_for(Locator::Css("input[name=username]")).await;
    b.sign_in(&base, "luca", &made).await;
    let who = c
        .find(Locator::Css(".bar .who"))
        .await
        .unwrap()
        .attr("aria-label")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(who.contains("luca (front desk)"), "{who}");
    b.click(Locator::Css(".bar .who")).await;
    b.wait_for(Locator::Id("current")).await;
    b.axe("My password").await;
    b.screenshot("desk-account-password").await;
    c.clone().close().await.unwrap();
}
