//! The desk's doors: a visit to `/login` or `/kiosk` keeps nothing, pairing is limited per
//! address, a paired kiosk ends when it is unpaired, outlives its pairing, loses its
//! approver or its client, every page checks the role it needs, the guest export is a POST
//! with the CSRF token, and the own-password form is throttled like sign-in.

use reqwest::Method;
use serde_json::json;

use innkeep::service::oauth;

use crate::support::desk::{Browser, approve, kiosk, staff};
use crate::support::{TestApp, spawn_app};

/// Rows in every table of the database.
async fn rows(app: &TestApp) -> i64 {
    let path = app.dir.as_ref().unwrap().path().join("innkeep.sqlite3");
    tokio::task::spawn_blocking(move || {
        let c = rusqlite::Connection::open(path).unwrap();
        let names: Vec<String> = c
            .prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        names
            .iter()
            .map(|n| {
                c.query_row(&format!("SELECT count(*) FROM \"{n}\""), [], |r| {
                    r.get::<_, i64>(0)
                })
                .unwrap()
            })
            .sum()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn visits_keep_nothing_and_pairing_is_limited_per_address() {
    let app = spawn_app().await;
    let before = rows(&app).await;
    let b = Browser::new(&app);
    for _ in 0..20 {
        assert_eq!(b.get("/login").await.status, 303);
        assert_eq!(b.get("/kiosk").await.status, 200);
        assert_eq!(b.get("/kiosk/poll").await.status, 303);
    }
    assert_eq!(rows(&app).await, before, "no visit wrote a row");
    // Sign-in still works with nothing stored between /login and the callback.
    let password = staff(&app, "zora", "front_desk").await;
    Browser::sign_in(&app, "zora", &password).await;
    let mut statuses = Vec::new();
    for _ in 0..12 {
        statuses.push(b.post("/kiosk/pair", &[]).await.status.as_u16());
    }
    assert_eq!(&statuses[..10], &[303; 10], "{statuses:?}");
    assert_eq!(statuses[10], 429, "{statuses:?}");
    let foreign = b
        .send(
            Method::POST,
            "/kiosk/pair",
            None,
            Some(&[]),
            Some("http://evil.example"),
        )
        .await;
    assert_eq!(foreign.status, 403);
    // Pairings that were never approved are forgotten once their code expires.
    app.clock()
        .set_now(chrono::Utc::now() + chrono::Duration::minutes(11));
    let gone = innkeep::service::maintenance::prune_kiosks(
        app.db(),
        std::time::Duration::from_secs(30 * 86_400),
    )
    .await
    .unwrap();
    assert_eq!(gone, 10);
}

/// A paired kiosk and the admin's browser that approved it.
async fn paired(app: &TestApp, admin: &str) -> (Browser, Browser) {
    let (k, code) = kiosk(app).await;
    let password = staff(app, admin, "admin").await;
    let a = Browser::sign_in(app, admin, &password).await;
    assert_eq!(approve(&a, &code).await.status, 303);
    let welcome = k.get("/kiosk").await;
    assert!(
        welcome.text.contains("Type your booking code"),
        "{}",
        welcome.text
    );
    (k, a)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_paired_kiosk_ends_with_its_grant() {
    let app = spawn_app().await;
    // Unpaired in Administration.
    let (k, a) = paired(&app, "root").await;
    let list = a.get("/admin/kiosks").await;
    assert_eq!(list.status, 200, "{}", list.text);
    let id = crate::support::desk::hidden(&list.text, "kiosk").unwrap();
    let csrf = Browser::csrf(&list);
    let done = a
        .post("/admin/kiosks/unpair", &[("csrf", &csrf), ("kiosk", &id)])
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let ended = k.get("/kiosk").await;
    assert_eq!(ended.status, 200);
    assert!(
        ended.text.contains("The front desk unpaired this kiosk"),
        "{}",
        ended.text
    );
    assert!(ended.text.contains("Pair this kiosk"));

    // Its lifetime (30 days by default) is over.
    let (k, _) = paired(&app, "root2").await;
    app.clock()
        .set_now(chrono::Utc::now() + chrono::Duration::days(31));
    let ended = k.get("/kiosk").await;
    assert!(
        ended.text.contains("longer ago than the hotel allows"),
        "{}",
        ended.text
    );
    app.clock().set_now(chrono::Utc::now());

    // The staff member who approved it is disabled.
    let (k, _) = paired(&app, "root3").await;
    oauth::disable_user(app.db(), "root3").await.unwrap();
    let ended = k.get("/kiosk").await;
    assert!(
        ended.text.contains("can no longer sign in"),
        "{}",
        ended.text
    );

    // The kiosk client is revoked: a page that says so, not a breakdown.
    let (k, a) = paired(&app, "root4").await;
    let csrf = Browser::csrf(&a.get("/admin/clients/cli_kiosk").await);
    let revoked = a
        .post(
            "/admin/clients/cli_kiosk/revoke",
            &[("csrf", &csrf), ("confirm", "yes")],
        )
        .await;
    assert_eq!(revoked.status, 303, "{}", revoked.text);
    for path in ["/kiosk", "/kiosk"] {
        let off = k.get(path).await;
        assert_eq!(off.status, 403, "{}", off.text);
        assert!(off.text.contains("switched off"), "{}", off.text);
    }
    let fresh = Browser::new(&app).get("/kiosk").await;
    assert_eq!(fresh.status, 403);
    let pair = Browser::new(&app).post("/kiosk/pair", &[]).await;
    assert_eq!(pair.status, 403, "{}", pair.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn every_page_checks_the_role_it_needs() {
    let app = spawn_app().await;
    let g = app.guest("Ada", "Byron").await;
    let rt = app.room_type("DBL", 2).await;
    app.room("7", &rt).await;
    let today = chrono::Utc::now().date_naive();
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": today.to_string(),
                   "departure": (today + chrono::Days::new(2)).to_string(), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let password = staff(&app, "hana", "housekeeping").await;
    let h = Browser::sign_in(&app, "hana", &password).await;
    for path in [
        format!("/reservations/{r}/check-out"),
        format!("/reservations/{r}/check-in"),
        "/reservations/new".to_string(),
        format!("/reservations/{r}"),
        "/invoices".to_string(),
        "/invoices/new".to_string(),
        "/guests".to_string(),
        format!("/guests/{g}/edit"),
        "/admin/compliance".to_string(),
        "/admin/kiosks".to_string(),
    ] {
        let page = h.get(&path).await;
        assert_eq!(page.status, 403, "{path}: {}", page.text);
        assert!(
            !page.text.contains("Byron"),
            "{path} shows nothing of the guest"
        );
    }
    assert_eq!(h.get("/housekeeping").await.status, 200);
    let csrf = Browser::csrf(&h.get("/housekeeping").await);
    let post = h
        .post(
            &format!("/reservations/{r}/check-out"),
            &[("csrf", &csrf), ("payment_method", "bogus")],
        )
        .await;
    assert_eq!(post.status, 403, "{}", post.text);
    // A manager runs the hotel but not its administration.
    let password = staff(&app, "mila", "manager").await;
    let m = Browser::sign_in(&app, "mila", &password).await;
    assert_eq!(m.get("/admin/compliance").await.status, 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_guest_export_is_a_post_with_the_csrf_token() {
    let app = spawn_app().await;
    let g = app.guest("Eva", "Kralj").await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get(&format!("/guests/{g}")).await;
    assert!(
        page.text
            .contains(&format!("action=\"/guests/{g}/export\"")),
        "{}",
        page.text
    );
    let link = a.get(&format!("/guests/{g}/export")).await;
    assert_eq!(link.status, 405, "a link (or another site) cannot export");
    let forged = a.post(&format!("/guests/{g}/export"), &[]).await;
    assert_eq!(forged.status, 403);
    let csrf = Browser::csrf(&page);
    let done = a
        .post(&format!("/guests/{g}/export"), &[("csrf", &csrf)])
        .await;
    assert_eq!(done.status, 200, "{}", done.text);
    assert!(
        done.header("content-disposition")
            .unwrap()
            .contains("attachment")
    );
    assert!(done.text.contains("Kralj"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_own_password_form_is_throttled_like_sign_in() {
    let app = spawn_app().await;
    let password = staff(&app, "tea", "front_desk").await;
    let b = Browser::sign_in(&app, "tea", &password).await;
    let csrf = Browser::csrf(&b.get("/account/password").await);
    let try_with = |current: String| {
        let (b, csrf) = (&b, csrf.clone());
        async move {
            b.post(
                "/account/password",
                &[
                    ("csrf", &csrf),
                    ("current", &current),
                    ("new", "a-brand-new-secret"),
                    ("repeat", "a-brand-new-secret"),
                ],
            )
            .await
        }
    };
    for n in 0..5 {
        let r = try_with(format!("wrong-guess-{n}")).await;
        assert_eq!(r.status, 422);
        assert!(r.text.contains("This is not your password"), "{}", r.text);
    }
    let r = try_with(password.clone()).await;
    assert_eq!(r.status, 422, "the right one waits too");
    assert!(r.text.contains("Too many wrong passwords"), "{}", r.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kiosk_lives_its_own_days_not_its_logins() {
    // Logins end after a day here; a kiosk stays paired for its 30 days all the same.
    let app = crate::support::Spawn::new()
        .config(|c| c.oauth.refresh_max_days = 1)
        .start()
        .await;
    let (k, _) = paired(&app, "root").await;
    app.clock()
        .set_now(chrono::Utc::now() + chrono::Duration::days(3));
    let still = k.get("/kiosk").await;
    assert!(
        still.text.contains("Type your booking code"),
        "{}",
        still.text
    );
}
