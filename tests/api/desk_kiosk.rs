//! Self check-in at a kiosk (screen 11): the kiosk shows a code, an admin approves it in the
//! admin pages, a guest finds their booking by code and last name (wrong tries limited),
//! completes the registration data and is told their room; Today shows them in house. A
//! kiosk's cookie opens nothing of the desk.

use reqwest::Method;
use serde_json::json;

use crate::support::Reply;
use crate::support::alloggiati_sim::Sim;
use crate::support::desk::{Browser, approve, hidden, kiosk, staff};
use crate::support::registration::{day, hotel, italian};

async fn post(k: &Browser, path: &str, form: &[(&str, &str)]) -> Reply {
    k.post(path, form).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_guest_checks_in_at_a_kiosk_approved_in_the_admin_pages() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let g = app
        .post(
            "/v1/guests",
            italian("Anna", "De Luca", "female", "1985-02-03", "Roma", "RM"),
        )
        .await
        .expect(201)
        .id();
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("12", &rt).await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day().to_string(),
                   "departure": (day() + chrono::Days::new(2)).to_string(), "adults": 1}),
        )
        .await
        .expect(201)
        .body;
    let code = r["code"].as_str().unwrap().to_string();

    // The kiosk waits with its code; an admin approves it in the admin pages.
    let (k, user_code) = kiosk(&app).await;
    let waiting = k.get("/kiosk").await;
    assert!(waiting.text.contains(&user_code) && waiting.text.contains("hx-get=\"/kiosk/poll\""));
    let root = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    let ok = approve(&a, &user_code).await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    let welcome = k.get("/kiosk").await;
    assert!(
        welcome.text.contains("Type your booking code"),
        "{}",
        welcome.text
    );
    let kcsrf = hidden(&welcome.text, "csrf").unwrap();

    // A kiosk's cookie opens nothing of the desk, even when sent as a desk session.
    let as_desk = k.get("/guests").await;
    assert_eq!(as_desk.status, 303, "no desk session: to the sign-in");
    let value = k
        .session
        .as_ref()
        .unwrap()
        .split_once('=')
        .unwrap()
        .1
        .to_string();
    let forged = k
        .send(
            Method::GET,
            "/guests",
            Some(&format!("innkeep_desk={value}")),
            None,
            None,
        )
        .await;
    assert_eq!(forged.status, 303);

    // A wrong name, then the right one (case and spaces aside).
    let wrong = post(
        &k,
        "/kiosk/find",
        &[("csrf", &kcsrf), ("code", &code), ("last_name", "Rossi")],
    )
    .await;
    assert_eq!(wrong.status, 422);
    assert!(wrong.text.contains("No booking arriving today"));
    assert!(
        wrong.text.contains(&format!("value=\"{code}\"")),
        "what was typed stays"
    );
    let found = post(
        &k,
        "/kiosk/find",
        &[
            ("csrf", &kcsrf),
            ("code", &code.to_lowercase()),
            ("last_name", " de  luca "),
        ],
    )
    .await;
    assert_eq!(found.status, 303, "{}", found.text);
    // The guest takes their time: two minutes, then two more after an error; every request
    // counts as activity, so nothing typed is lost to the 3-minute idle reset.
    let at = |minutes: i64| {
        let t: chrono::DateTime<chrono::Utc> = format!("{}T10:00:00Z", day()).parse().unwrap();
        t + chrono::Duration::minutes(minutes)
    };
    app.clock().set_now(at(2));
    let form = k.get("/kiosk").await;
    assert!(
        form.text.contains("Anna De Luca") && form.text.contains("name=\"g0_document_number\""),
        "{}",
        form.text
    );
    assert!(
        form.text.contains("name=\"g0_birth_municipality\"") && !form.text.contains("/places"),
        "a guest types the place: the picker is the staff's"
    );
    assert!(
        !form.text.contains(&r["id"].as_str().unwrap().to_string()),
        "the booking's id is not on the page"
    );

    // Without consent, then without the document: each said; then checked in.
    let version = hidden(&form.text, "g0_version").unwrap();
    let mut fields = vec![("csrf", kcsrf.clone()), ("g0_version", version)];
    for (k2, v) in [
        ("g0_gender", "female"),
        ("g0_birth_date", "1985-02-03"),
        ("g0_nationality", "IT"),
        ("g0_birth_country", "IT"),
        ("g0_birth_municipality", "Roma"),
        ("g0_birth_region", "RM"),
    ] {
        fields.push((k2, v.to_string()));
    }
    let send = |extra: Vec<(&'static str, String)>| {
        let mut f = fields.clone();
        f.extend(extra);
        let k = &k;
        async move {
            let pairs: Vec<(&str, &str)> = f.iter().map(|(a, b)| (*a, b.as_str())).collect();
            k.post("/kiosk/check-in", &pairs).await
        }
    };
    let no_consent = send(vec![]).await;
    assert_eq!(no_consent.status, 422);
    assert!(
        no_consent.text.contains("tick the box"),
        "{}",
        no_consent.text
    );
    app.clock().set_now(at(4));
    let missing = send(vec![("consent", "yes".into())]).await;
    assert_eq!(missing.status, 422, "{}", missing.text);
    assert!(
        missing.text.contains("g0_document_type-error")
            || missing.text.contains("g0_document_number-error"),
        "{}",
        missing.text
    );
    app.clock().set_now(at(6));
    let done = send(vec![
        ("consent", "yes".into()),
        ("g0_document_type", "id_card".into()),
        ("g0_document_number", "CA12345AB".into()),
        ("g0_document_country", "IT".into()),
        ("g0_document_place", "Roma".into()),
    ])
    .await;
    // In Italy the kiosk never checks in alone: the guest is sent to the reception, where a
    // member of staff sees her document in person (Consiglio di Stato, 9101/2025).
    assert_eq!(done.status, 200, "{}", done.text);
    assert!(
        done.text.contains("Please go to the reception"),
        "{}",
        done.text
    );
    assert!(
        done.text.contains("hx-get=\"/kiosk/identity\""),
        "{}",
        done.text
    );
    let rid = r["id"].as_str().unwrap();
    let stay = app.get(&format!("/v1/reservations/{rid}")).await.body;
    assert_eq!(
        stay["status"], "confirmed",
        "not checked in before the check"
    );
    assert_eq!(k.get("/kiosk/identity").await.status, 204, "still waiting");
    let fd = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &fd).await;
    let today = m.get("/").await;
    for wanted in [
        "Waiting for an identity check",
        "Anna De Luca</strong>: Identity card CA12345AB IT",
        &format!("action=\"/reservations/{rid}/identity\""),
    ] {
        assert!(today.text.contains(wanted), "{wanted}: {}", today.text);
    }
    let mcsrf = hidden(&today.text, "csrf").unwrap();
    let confirmed = m
        .post(
            &format!("/reservations/{rid}/identity"),
            &[("csrf", &mcsrf)],
        )
        .await;
    assert_eq!(confirmed.status, 303, "{}", confirmed.text);
    let stay = app.get(&format!("/v1/reservations/{rid}")).await.body;
    assert_eq!(stay["status"], "checked_in");
    assert_eq!(stay["room_id"], room.as_str());
    let history = app
        .get(&format!("/v1/reservations/{rid}/history"))
        .await
        .body;
    let who = history["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["type"] == "reservation.identity_confirmed")
        .unwrap_or_else(|| panic!("{history}"));
    assert_eq!(who["actor"]["name"], "marta", "{who}");
    let poll = k.get("/kiosk/identity").await;
    assert_ne!(poll.status, 204, "the kiosk moves on");
    let shown = k.get("/kiosk").await;
    assert!(shown.text.contains("Your room is 12."), "{}", shown.text);
    let back = k.get("/kiosk").await;
    assert!(
        back.text.contains("Type your booking code"),
        "the next guest starts afresh"
    );

    // The desk's Today shows her in house.
    let today = m.get("/").await;
    assert!(!today.text.contains("Waiting for an identity check"));
    assert!(
        today.text.contains("Anna De Luca") && today.text.contains("1 room in use"),
        "{}",
        today.text
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn wrong_tries_are_limited_and_an_unapproved_kiosk_does_nothing() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let (k, user_code) = kiosk(&app).await;
    // Not approved: a form post only gets the code page again.
    let early = k
        .post(
            "/kiosk/find",
            &[("csrf", "x"), ("code", "ABC"), ("last_name", "x")],
        )
        .await;
    assert_eq!(early.status, 200);
    assert!(early.text.contains(&user_code));
    let root = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    approve(&a, &user_code).await;
    let welcome = k.get("/kiosk").await;
    let kcsrf = hidden(&welcome.text, "csrf").unwrap();
    let forged = k
        .post(
            "/kiosk/find",
            &[("csrf", "wrong"), ("code", "X"), ("last_name", "Y")],
        )
        .await;
    assert_eq!(forged.status, 403);
    for _ in 0..5 {
        let r = k
            .post(
                "/kiosk/find",
                &[("csrf", &kcsrf), ("code", "NOPE"), ("last_name", "Nobody")],
            )
            .await;
        assert_eq!(r.status, 422);
    }
    let locked = k
        .post(
            "/kiosk/find",
            &[("csrf", &kcsrf), ("code", "NOPE"), ("last_name", "Nobody")],
        )
        .await;
    assert_eq!(locked.status, 429, "{}", locked.text);
    assert!(locked.text.contains("ask at the reception"));
}

#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_a_guest_checks_in_at_the_kiosk() {
    use fantoccini::Locator;
    let Some(b) = crate::support::browser::chrome(1024, 900).await else {
        return;
    };
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let mut guest = italian("Luca", "Bianchi", "male", "1979-09-09", "Roma", "RM");
    guest["document"] = json!({"type": "id_card", "number": "CA99887AB", "issuing_place": "Roma", "issuing_country": "IT"});
    let g = app.post("/v1/guests", guest).await.expect(201).id();
    let rt = app.room_type("DBL", 2).await;
    app.room("21", &rt).await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day().to_string(),
                   "departure": (day() + chrono::Days::new(1)).to_string(), "adults": 1}),
        )
        .await
        .expect(201)
        .body;
    let code = r["code"].as_str().unwrap();
    let c = &b.client;
    let base = format!("http://{}", app.addr);
    c.goto(&format!("{base}/kiosk")).await.unwrap();
    b.wait_for(Locator::Css("form[action='/kiosk/pair'] button"))
        .await;
    b.axe("Kiosk, not paired").await;
    b.screenshot("kiosk-unpaired").await;
    b.click(Locator::Css("form[action='/kiosk/pair'] button"))
        .await;
    let shown = b.wait_for(Locator::Css(".password-once code")).await;
    let user_code = shown.text().await.unwrap();
    b.axe("Kiosk, waiting for approval").await;
    b.screenshot("kiosk-waiting").await;
    let root = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    let ok = approve(&a, &user_code).await;
    assert_eq!(ok.status, 303);
    // The kiosk's page checks again by itself (every 5 seconds).
    c.wait()
        .at_most(std::time::Duration::from_secs(20))
        .for_element(Locator::Id("last_name"))
        .await
        .unwrap();
    b.axe("Kiosk, welcome").await;
    b.screenshot("kiosk-welcome-en").await;
    // The guest reads Italian: one tap, and the whole visit is in Italian.
    b.click(Locator::LinkText("Italiano")).await;
    let field = b.wait_for(Locator::Css("html[lang=it] #last_name")).await;
    let page = c.source().await.unwrap();
    assert!(page.contains("Trova la mia prenotazione"), "{page}");
    c.find(Locator::Id("code"))
        .await
        .unwrap()
        .send_keys(code)
        .await
        .unwrap();
    field.send_keys("Bianchi").await.unwrap();
    b.screenshot("kiosk-welcome").await;
    b.click(Locator::Css("button.primary")).await;
    let consent = b.wait_for(Locator::Id("consent")).await;
    b.axe("Kiosk, registration").await;
    b.screenshot("kiosk-registration").await;
    consent.click().await.unwrap();
    b.click(Locator::Css("button.primary")).await;
    let waiting = b.wait_for(Locator::Css(".kiosk-room")).await;
    let said = waiting.text().await.unwrap();
    assert!(said.contains("Andate alla reception"), "{said}");
    b.axe("Kiosk, waiting for the identity check").await;
    b.screenshot("kiosk-identity-wait").await;
    // At the reception: Today lists the stay with the document; staff confirm having seen it.
    let front = staff(&app, "sara", "front_desk").await;
    let desk = Browser::sign_in(&app, "sara", &front).await;
    let today = desk.get("/").await;
    assert!(
        today
            .text
            .contains("Luca Bianchi</strong>: Identity card CA99887AB IT"),
        "{}",
        today.text
    );
    let rid = r["id"].as_str().unwrap();
    let csrf = hidden(&today.text, "csrf").unwrap();
    let ok = desk
        .post(&format!("/reservations/{rid}/identity"), &[("csrf", &csrf)])
        .await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    // The kiosk's page looks again by itself (every 5 seconds) and shows the room.
    c.wait()
        .at_most(std::time::Duration::from_secs(20))
        .for_element(Locator::XPath(
            "//p[contains(., 'La vostra camera è la 21.')]",
        ))
        .await
        .unwrap();
    b.axe("Kiosk, checked in").await;
    b.screenshot("kiosk-done").await;
    // Starting again forgets the choice: the next guest gets the kiosk's own language, and
    // may choose Croatian.
    c.goto(&format!("{base}/kiosk/reset")).await.unwrap();
    b.wait_for(Locator::Css("html[lang=en] #last_name")).await;
    b.click(Locator::LinkText("Hrvatski")).await;
    b.wait_for(Locator::Css("html[lang=hr] #last_name")).await;
    b.axe("Kiosk, welcome in Croatian").await;
    b.screenshot("kiosk-welcome-hr").await;
    let stay = app
        .get(&format!("/v1/reservations/{}", r["id"].as_str().unwrap()))
        .await
        .body;
    assert_eq!(stay["status"], "checked_in");
    c.clone().close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kiosk_left_waiting_for_the_identity_check_is_the_next_guests_after_three_minutes() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let mut guest = italian("Sara", "Neri", "female", "1990-05-05", "Roma", "RM");
    guest["document"] = json!({"type": "passport", "number": "YA1234567", "issuing_place": "Roma", "issuing_country": "IT"});
    let g = app.post("/v1/guests", guest).await.expect(201).id();
    let rt = app.room_type("DBL", 2).await;
    app.room("30", &rt).await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": day().to_string(),
                   "departure": (day() + chrono::Days::new(1)).to_string(), "adults": 1}),
        )
        .await
        .expect(201)
        .body;
    let (k, user_code) = kiosk(&app).await;
    let root = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    assert_eq!(approve(&a, &user_code).await.status, 303);
    let kcsrf = hidden(&k.get("/kiosk").await.text, "csrf").unwrap();
    let code = r["code"].as_str().unwrap();
    let found = post(
        &k,
        "/kiosk/find",
        &[("csrf", &kcsrf), ("code", code), ("last_name", "Neri")],
    )
    .await;
    assert_eq!(found.status, 303, "{}", found.text);
    let form = k.get("/kiosk").await;
    let version = hidden(&form.text, "g0_version").unwrap();
    let filled = [
        ("csrf", kcsrf.as_str()),
        ("g0_version", version.as_str()),
        ("consent", "yes"),
        ("g0_gender", "female"),
        ("g0_birth_date", "1990-05-05"),
        ("g0_nationality", "IT"),
        ("g0_birth_country", "IT"),
        ("g0_birth_municipality", "Roma"),
        ("g0_birth_region", "RM"),
        ("g0_document_type", "passport"),
        ("g0_document_number", "YA1234567"),
        ("g0_document_country", "IT"),
        ("g0_document_place", "Roma"),
    ];
    let done = post(&k, "/kiosk/check-in", &filled).await;
    assert!(
        done.text.contains("Please go to the reception"),
        "{}",
        done.text
    );
    assert_eq!(k.get("/kiosk/identity").await.status, 204);
    let at: chrono::DateTime<chrono::Utc> = app.clock().now() + chrono::Duration::minutes(4);
    app.clock().set_now(at);
    let moved = k.get("/kiosk/identity").await;
    assert_ne!(moved.status, 204, "the kiosk moves on");
    let next = k.get("/kiosk").await;
    assert!(
        next.text.contains("Type your booking code"),
        "{}",
        next.text
    );
    // The stay still waits at the desk, and is checked in from there.
    let today = a.get("/").await;
    assert!(
        today
            .text
            .contains("Sara Neri</strong>: Passport YA1234567 IT"),
        "{}",
        today.text
    );
    let csrf = hidden(&today.text, "csrf").unwrap();
    let rid = r["id"].as_str().unwrap();
    let ok = a
        .post(&format!("/reservations/{rid}/identity"), &[("csrf", &csrf)])
        .await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    let stay = app.get(&format!("/v1/reservations/{rid}")).await.body;
    assert_eq!(stay["status"], "checked_in");
}
