//! The front desk over plain HTTP: signing in through the real flow, the session and its
//! ends (logout, idle, disabled staff), CSRF and Origin, and the Today screen.

use reqwest::Method;
use serde_json::json;

use crate::support::desk::{Browser, staff};
use crate::support::{Spawn, day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn without_a_session_every_page_sends_you_to_sign_in() {
    let app = spawn_app().await;
    let b = Browser::new(&app);
    let r = b.get("/").await;
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location").as_deref(), Some("/login"));
    let forged = b
        .send(Method::GET, "/", Some("innkeep_desk=ds_forged"), None, None)
        .await;
    assert_eq!(forged.status, 303);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_receptionist_signs_in_and_sees_today() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let rt = app.room_type("FAM", 3).await;
    let room = app.room("101", &rt).await;
    let second = app.room("102", &rt).await;
    let anna = app.guest("Anna", "Rossi").await;
    let bruno = app.guest("Bruno", "Bianchi").await;
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": anna, "room_type_id": rt, "room_id": room,
               "arrival": day(0), "departure": day(3), "adults": 2, "children": 1}),
    )
    .await
    .expect(201);
    let staying = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": bruno, "room_type_id": rt,
                   "arrival": day(0), "departure": day(1), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    app.post(
        "/v1/check-in",
        json!({"reservation_id": staying, "room_id": second}),
    )
    .await
    .expect(200);

    let b = Browser::sign_in(&app, "marta", &password).await;
    let today = b.get("/").await;
    assert_eq!(today.status, 200, "{}", today.text);
    let html = &today.text;
    assert!(html.contains("Signed in as marta (front desk)"), "{html}");
    assert!(
        html.contains("Anna Rossi") && html.contains("2 adults, 1 child"),
        "{html}"
    );
    assert!(html.contains("3 nights") && html.contains("101"), "{html}");
    assert!(
        html.contains("1 arrival") && html.contains("1 room in use"),
        "{html}"
    );
    assert!(
        html.contains("Bruno Bianchi") && html.contains("0 rooms free tonight"),
        "{html}"
    );
    let csp = today.header("content-security-policy").unwrap();
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert!(
        !html.contains("access_token") && !html.contains("eyJ"),
        "no token in the page"
    );
    let session = b.session.clone().unwrap();
    assert!(session.starts_with("innkeep_desk=ds_"));
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_out_needs_the_csrf_token_and_the_same_origin() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get("/").await;
    let csrf = Browser::csrf(&page);

    let missing = b.post("/logout", &[]).await;
    assert_eq!(missing.status, 403);
    assert!(
        missing
            .text
            .contains("expired or did not come from this page")
    );
    let foreign = b
        .send(
            Method::POST,
            "/logout",
            None,
            Some(&[("csrf", csrf.as_str())]),
            Some("http://evil.example"),
        )
        .await;
    assert_eq!(foreign.status, 403);
    assert!(foreign.text.contains("another website"));
    assert_eq!(b.get("/").await.status, 200, "still signed in");

    let out = b.post("/logout", &[("csrf", csrf.as_str())]).await;
    assert_eq!(out.status, 303);
    assert_eq!(out.header("location").as_deref(), Some("/login"));
    assert_eq!(b.get("/").await.status, 303, "the session is gone");
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_end_when_idle_and_when_the_staff_member_is_disabled() {
    let app = Spawn::new()
        .config(|c| c.desk.idle_minutes = 30)
        .start()
        .await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    app.clock()
        .set_now(chrono::Utc::now() + chrono::Duration::minutes(20));
    assert_eq!(b.get("/").await.status, 200, "20 minutes is not idle");
    app.clock()
        .set_now(chrono::Utc::now() + chrono::Duration::minutes(55));
    assert_eq!(b.get("/").await.status, 303, "35 quiet minutes end it");

    app.clock().set_now(chrono::Utc::now());
    let password = staff(&app, "luca", "front_desk").await;
    let luca = Browser::sign_in(&app, "luca", &password).await;
    assert_eq!(luca.get("/").await.status, 200);
    innkeep::service::oauth::disable_user(app.db(), "luca")
        .await
        .unwrap();
    assert_eq!(luca.get("/").await.status, 303, "disabled: out at once");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_callback_this_browser_did_not_start_is_refused() {
    let app = spawn_app().await;
    let b = Browser::new(&app);
    let r = b.get("/login/callback?code=abc&state=st_forged").await;
    assert_eq!(r.status, 400);
    assert!(
        r.text.contains("not one this browser started"),
        "{}",
        r.text
    );
    assert!(r.text.contains(r#"href="/login""#));
    let denied = b.get("/login/callback?error=access_denied").await;
    assert_eq!(denied.status, 400);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_reservation_page_shows_the_stay_its_folio_and_who_did_what() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let r = app.reserve(&g, &rt, &day(0), &day(2)).await.expect(201);
    let (id, code) = (r.id(), r.body["code"].as_str().unwrap().to_string());
    app.post(
        &format!("/v1/reservations/{id}/charges"),
        json!({"description": "Minibar", "quantity": 2, "unit_price": 450}),
    )
    .await
    .expect(201);

    let b = Browser::sign_in(&app, "marta", &password).await;
    let today = b.get("/").await;
    assert!(
        today
            .text
            .contains(&format!(r#"href="/reservations/{id}""#))
    );
    let page = b.get(&format!("/reservations/{id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    let html = &page.text;
    assert!(
        html.contains(&format!("Anna Rossi, booking {code}")),
        "{html}"
    );
    assert!(
        html.contains("confirmed") && html.contains("2 nights"),
        "{html}"
    );
    assert!(
        html.contains("Minibar") && html.contains("EUR 9.00"),
        "{html}"
    );
    assert!(
        html.contains("Booked") && html.contains("Charge added"),
        "{html}"
    );
    assert!(html.contains("tests"), "the client that acted: {html}");

    let missing = b.get("/reservations/res_nothing").await;
    assert_eq!(missing.status, 404);
    assert!(missing.text.contains("Back to Today"));
}

#[tokio::test(flavor = "multi_thread")]
async fn guests_are_found_by_name_and_their_page_lists_their_stays() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let anna = app.guest("Anna", "Rossi").await;
    app.guest("Bruno", "Bianchi").await;
    let code = app.reserve(&anna, &rt, &day(3), &day(5)).await.expect(201);
    let code = code.body["code"].as_str().unwrap().to_string();

    let b = Browser::sign_in(&app, "marta", &password).await;
    let all = b.get("/guests").await;
    assert_eq!(all.status, 200);
    assert!(all.text.contains("2 guests"), "{}", all.text);
    let found = b.get("/guests?q=ross").await;
    assert!(found.text.contains("Anna Rossi") && !found.text.contains("Bruno"));
    assert!(
        found.text.contains(r#"value="ross""#),
        "the query stays in the box"
    );
    let none = b.get("/guests?q=zzz").await;
    assert!(none.text.contains("No guest has this name"));
    // One box finds a booking by its code (case and spaces aside) and a guest by e-mail.
    let typed = format!(" {} ", code.to_lowercase());
    let booking = b
        .get(&format!(
            "/guests?{}",
            serde_urlencoded::to_string([("q", &typed)]).unwrap()
        ))
        .await;
    assert!(
        booking
            .text
            .contains(&format!("<strong>{code}</strong>: Anna Rossi"))
            && booking.text.contains("/reservations/"),
        "{}",
        booking.text
    );
    let with_email = app
        .post(
            "/v1/guests",
            serde_json::json!({"first_name": "Eva", "last_name": "Mail", "email": "Eva.Mail@example.com"}),
        )
        .await
        .expect(201)
        .id();
    let by_email = b.get("/guests?q=eva.mail%40EXAMPLE.com").await;
    assert!(
        by_email.text.contains(&format!("/guests/{with_email}")),
        "{}",
        by_email.text
    );

    let page = b.get(&format!("/guests/{anna}")).await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains(&code) && page.text.contains("2 nights"));
    assert!(page.text.contains("not given"), "missing details say so");
    assert_eq!(b.get("/guests/gst_nobody").await.status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_housekeeper_cannot_open_the_guests() {
    let app = spawn_app().await;
    let password = staff(&app, "ivo", "housekeeping").await;
    let b = Browser::sign_in(&app, "ivo", &password).await;
    let home = b.get("/").await;
    assert_eq!(home.status, 303, "housekeeping lands on its own screen");
    assert_eq!(home.header("location").as_deref(), Some("/housekeeping"));
    let refused = b.get("/guests").await;
    assert_eq!(refused.status, 403, "{}", refused.text);
    assert!(refused.text.contains("Your role cannot open this page"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_guest_is_changed_with_errors_next_to_their_fields_and_nothing_typed_lost() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let id = app
        .post(
            "/v1/guests",
            json!({"first_name": "Anna", "last_name": "Rossi",
                   "address": {"line1": "Via Roma 1", "line2": "Scala B", "region": "RM"}}),
        )
        .await
        .expect(201)
        .id();
    let b = Browser::sign_in(&app, "marta", &password).await;
    let form = b.get(&format!("/guests/{id}/edit")).await;
    assert!(form.text.contains(r#"value="Scala B""#) && form.text.contains(r#"value="RM""#));
    assert_eq!(form.status, 200, "{}", form.text);
    assert!(form.text.contains(r#"value="Rossi""#));
    let csrf = Browser::csrf(&form);
    let path = format!("/guests/{id}");
    let send =
        |email: &'static str, birth: &'static str, number: &'static str, version: &'static str| {
            vec![
                ("csrf", csrf.clone()),
                ("version", version.to_string()),
                ("first_name", "Anna".to_string()),
                ("last_name", "Rossi".to_string()),
                ("email", email.to_string()),
                ("birth_date", birth.to_string()),
                ("document_type", "passport".to_string()),
                ("document_number", number.to_string()),
                ("country", "IT".to_string()),
                ("line1", "Via Roma 1".to_string()),
                ("line2", "Scala B".to_string()),
                ("region", "RM".to_string()),
            ]
        };
    let pairs = |v: &[(&'static str, String)]| -> Vec<(&'static str, String)> { v.to_vec() };

    // Two mistakes: both shown next to their fields, everything typed still there.
    let bad = pairs(&send("anna-at-example", "2999-01-01", "YA1234567", "1"));
    let refs: Vec<(&str, &str)> = bad.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = b.post(&path, &refs).await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert!(r.text.contains(r#"id="email-error""#), "{}", r.text);
    assert!(
        r.text.contains(r#"value="anna-at-example""#) && r.text.contains(r#"value="YA1234567""#)
    );
    assert!(r.text.contains("Nothing was saved yet"));

    // A stale version (someone else saved meanwhile): said plainly, values kept.
    let stale = pairs(&send("anna@example.com", "1990-05-01", "YA1234567", "7"));
    let refs: Vec<(&str, &str)> = stale.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = b.post(&path, &refs).await;
    assert_eq!(r.status, 409);
    assert!(
        r.text.contains("Someone else changed this guest") && r.text.contains("anna@example.com")
    );

    let good = pairs(&send("anna@example.com", "1990-05-01", "YA1234567", "1"));
    let refs: Vec<(&str, &str)> = good.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = b.post(&path, &refs).await;
    assert_eq!(r.status, 303, "{}", r.text);
    let page = b.get(&path).await;
    assert!(page.text.contains("anna@example.com") && page.text.contains("passport YA1234567"));
    let saved = app.get(&format!("/v1/guests/{id}")).await.expect(200);
    assert_eq!(
        saved.body["address"]["line2"], "Scala B",
        "fields of the address are kept"
    );
    assert_eq!(saved.body["address"]["region"], "RM");
    let history = app.all(&format!("/v1/guests/{id}/history")).await;
    assert_eq!(
        history.last().unwrap()["actor"]["name"],
        "marta",
        "the change is marta's"
    );

    let no_token = b.post(&path, &[("first_name", "Eve")]).await;
    assert_eq!(no_token.status, 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_arrival_with_a_room_is_checked_in_from_today() {
    let app = spawn_app().await;
    let password = staff(&app, "marta", "front_desk").await;
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let g = app.guest("Anna", "Rossi").await;
    let id = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                   "arrival": day(0), "departure": day(1), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let b = Browser::sign_in(&app, "marta", &password).await;
    let today = b.get("/").await;
    assert!(
        today
            .text
            .contains(&format!("action=\"/reservations/{id}/check-in\"")),
        "{}",
        today.text
    );
    let csrf = Browser::csrf(&today);
    let done = b
        .post(
            &format!("/reservations/{id}/check-in"),
            &[("csrf", &csrf), ("room_id", &room), ("back", "today")],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    assert_eq!(
        done.header("location").as_deref(),
        Some("/?done=checked-in")
    );
    let after = b.get("/?done=checked-in").await;
    assert!(after.text.contains("Checked in."), "{}", after.text);
    assert!(after.text.contains("1 room in use"), "{}", after.text);

    // htmx asking without a session is sent to sign in with the whole window.
    let r = reqwest::Client::new()
        .get(format!("http://{}/board", app.addr))
        .header("hx-request", "true")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers().get("hx-redirect").and_then(|v| v.to_str().ok()),
        Some("/login")
    );
}
