//! Guests' messages through an SMTP relay double: a booking and its cancellation are each
//! confirmed once, in the guest's language (else the property's), with a Message-ID derived
//! from the change; a relay that refuses for now is tried again and the message then sent;
//! one that refuses for good leaves the message bounced with `message.failed`; nothing is
//! made without `[mail]` or without an address; `innkeep mail test` sends one at once.

use std::time::Duration;

use serde_json::{Value, json};

use innkeep::config::mail::MailConfig;

use crate::support::smtp::{Refuse, Relay};
use crate::support::{Spawn, TestApp, day, eventually, spawn_app};

fn config(relay: &Relay) -> MailConfig {
    relay.config(
        "Hotel Adriatic <desk@hotel.test>",
        Some("reception@hotel.test"),
    )
}

async fn hotel(relay: &Relay) -> TestApp {
    let cfg = config(relay);
    Spawn::new().config(|c| c.mail = Some(cfg)).start().await
}

/// A guest with an address, and a booking of theirs two nights from `from`.
async fn booking(app: &TestApp, language: Option<&str>, email: Option<&str>) -> Value {
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let mut body = json!({"first_name": "Giulia", "last_name": "Bianchi"});
    if let Some(l) = language {
        body["language"] = json!(l);
    }
    if let Some(e) = email {
        body["email"] = json!(e);
    }
    let guest = app.post("/v1/guests", body).await.expect(201).id();
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guest, "room_type_id": rt, "arrival": day(10),
               "departure": day(12), "adults": 2}),
    )
    .await
    .expect(201)
    .body
}

async fn events(app: &TestApp, kind: &str) -> Vec<Value> {
    app.all_events()
        .await
        .into_iter()
        .filter(|e| e["type"] == kind)
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_booking_and_its_cancellation_reach_the_guest_once_in_their_language() {
    let relay = Relay::start().await;
    let app = hotel(&relay).await;
    // An Italian property's CIN: a wrong one is refused by name and rule, a right one is
    // kept (typed with spaces and small letters on the desk, it is tidied there).
    let wrong = app.put("/v1/settings", json!({"cin": "IT12B1"})).await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(
        wrong.text.contains("\"cin\"") && wrong.text.contains("invalid_cin"),
        "{}",
        wrong.text
    );
    app.put("/v1/settings", json!({"cin": "IT039007B1A2B3C4"}))
        .await
        .expect(200);
    let r = booking(&app, Some("it"), Some("giulia@example.com")).await;
    let (id, code) = (r["id"].as_str().unwrap(), r["code"].as_str().unwrap());
    let taken = relay.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(taken.len(), 1);
    let m = &taken[0];
    assert_eq!(m.to, ["giulia@example.com"]);
    assert_eq!(
        m.header("Message-ID").as_deref(),
        Some(format!("<{id}.v1.confirmation@hotel.test>").as_str())
    );
    assert_eq!(
        m.header("Reply-To").as_deref(),
        Some("reception@hotel.test")
    );
    let subject = m.header("Subject").unwrap();
    assert!(subject.contains(code), "{subject}");
    assert!(m.data.contains("Gentile Giulia"), "{}", m.data);
    assert!(m.data.contains("Totale"), "{}", m.data);
    assert!(
        m.decoded()
            .contains("Codice identificativo nazionale (CIN): IT039007B1A2B3C4"),
        "{}",
        m.decoded()
    );
    assert!(m.data.contains("text/html"), "an HTML alternative");

    app.put(
        &format!("/v1/reservations/{id}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let taken = relay.wait_for(2, Duration::from_secs(10)).await;
    assert_eq!(taken.len(), 2);
    assert_eq!(
        taken[1].header("Message-ID").as_deref(),
        Some(format!("<{id}.v2.cancellation@hotel.test>").as_str())
    );
    assert!(taken[1].data.contains("annullata"), "{}", taken[1].data);
    eventually(Duration::from_secs(10), "two message.sent", || async {
        if events(&app, "message.sent").await.len() == 2 {
            Ok(())
        } else {
            Err(())
        }
    })
    .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(relay.taken().len(), 2, "none sent twice");
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_language_the_property_speaks_its_own_and_without_an_address_nothing_goes() {
    let relay = Relay::start().await;
    let app = hotel(&relay).await;
    app.put("/v1/settings", json!({"country": "HR"}))
        .await
        .expect(200);
    booking(&app, None, Some("ana@example.com")).await;
    let taken = relay.wait_for(1, Duration::from_secs(10)).await;
    assert!(
        taken[0].data.contains("Ukupno"),
        "Croatian: {}",
        taken[0].data
    );

    let quiet = Relay::start().await;
    let app = hotel(&quiet).await;
    booking(&app, Some("en"), None).await;
    let unmailed = spawn_app().await;
    let r = booking(&unmailed, Some("en"), Some("x@example.com")).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(quiet.taken().is_empty(), "no address, no message");
    let id = r["id"].as_str().unwrap().to_string();
    let made = unmailed
        .db()
        .read(move |c| innkeep::store::messages::of_reservation(c, &id))
        .await
        .unwrap();
    assert!(
        made.is_empty(),
        "no [mail], no message in the outbox: {made:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_relay_that_refuses_for_now_is_tried_again_and_one_that_refuses_for_good_is_said() {
    let relay = Relay::start().await;
    let app = hotel(&relay).await;
    relay.refuse(&[Refuse::ForNow]);
    let r = booking(&app, Some("en"), Some("guest@example.com")).await;
    let id = r["id"].as_str().unwrap().to_string();
    let db = app.db().clone();
    let status = |db: innkeep::db::Db, id: String| async move {
        db.read(move |c| innkeep::store::messages::of_reservation(c, &id))
            .await
            .unwrap()
    };
    eventually(Duration::from_secs(10), "deferred", || async {
        let m = status(db.clone(), id.clone()).await;
        if m[0].status == "deferred" {
            Ok(())
        } else {
            Err(())
        }
    })
    .await;
    let m = status(db.clone(), id.clone()).await;
    assert!(
        m[0].last_error
            .as_deref()
            .unwrap_or_default()
            .contains("451"),
        "{m:?}"
    );
    // A minute later the queue tries again, and the relay takes it.
    app.clock()
        .set_now(chrono::Utc::now() + chrono::Duration::seconds(90));
    let taken = relay.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(taken.len(), 1);
    eventually(Duration::from_secs(10), "sent", || async {
        let m = status(db.clone(), id.clone()).await;
        if m[0].status == "sent" && m[0].attempts == 2 {
            Ok(())
        } else {
            Err(())
        }
    })
    .await;

    relay.refuse(&[Refuse::ForGood]);
    app.put(
        &format!("/v1/reservations/{id}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    eventually(Duration::from_secs(10), "message.failed", || async {
        let failed = events(&app, "message.failed").await;
        match failed.first() {
            Some(e) if e["data"]["status"] == "bounced" => Ok(()),
            _ => Err(()),
        }
    })
    .await;
    let m = status(db.clone(), id.clone()).await;
    assert_eq!(m[1].status, "bounced");
    assert!(
        m[1].last_error
            .as_deref()
            .unwrap_or_default()
            .contains("550")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_command_line_sends_a_test_message() {
    use crate::support::binary::{innkeep, run_ok};
    let relay = Relay::start().await;
    let dir = tempfile::tempdir().unwrap();
    let none = innkeep(dir.path())
        .args(["mail", "test", "me@example.com"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&none.stderr).contains("no mail relay is configured"));
    std::fs::write(
        dir.path().join("innkeep.toml"),
        format!(
            "[mail]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\nfrom = \"desk@hotel.test\"\n",
            relay.addr.port()
        ),
    )
    .unwrap();
    let dir_path = dir.path().to_path_buf();
    let said =
        tokio::task::spawn_blocking(move || run_ok(&dir_path, &["mail", "test", "me@example.com"]))
            .await
            .unwrap();
    assert!(said.contains("The relay took the message"), "{said}");
    let taken = relay.taken();
    assert_eq!(taken.len(), 1);
    assert_eq!(
        taken[0].header("Subject").as_deref(),
        Some("innkeep: a test message")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_reservation_page_shows_the_messages_and_sends_the_confirmation_again() {
    use crate::support::desk::{Browser, staff};
    let relay = Relay::start().await;
    let app = hotel(&relay).await;
    let r = booking(&app, Some("en"), Some("giulia@example.com")).await;
    let id = r["id"].as_str().unwrap();
    relay.wait_for(1, Duration::from_secs(10)).await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = eventually(Duration::from_secs(10), "sent, on the page", || async {
        let p = b.get(&format!("/reservations/{id}")).await;
        if p.text.contains("Booking confirmation") && p.text.contains(">Sent<") {
            Ok(p)
        } else {
            Err(p.text)
        }
    })
    .await;
    assert!(page.text.contains("giulia@example.com"));
    let csrf = Browser::csrf(&page);
    let again = b
        .post(&format!("/reservations/{id}/messages"), &[("csrf", &csrf)])
        .await;
    assert_eq!(again.status, 303, "{}", again.text);
    let taken = relay.wait_for(2, Duration::from_secs(10)).await;
    assert_eq!(
        taken[1].header("Message-ID").as_deref(),
        Some(format!("<{id}.v1.confirmation.again1@hotel.test>").as_str())
    );

    // A guest without an address: refused in words, on the page.
    let guest = app.guest("Noa", "Address").await;
    let oid = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": r["room_type_id"],
                   "arrival": day(20), "departure": day(21), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let refused = b
        .post(&format!("/reservations/{oid}/messages"), &[("csrf", &csrf)])
        .await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert!(refused.text.contains("The guest has no e-mail address"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_outbox_shows_a_refused_message_and_sends_it_again() {
    use crate::support::desk::{Browser, staff};
    use fantoccini::Locator;
    let relay = Relay::start().await;
    let app = hotel(&relay).await;
    relay.refuse(&[Refuse::ForGood]);
    let r = booking(&app, Some("en"), Some("typo@example.com")).await;
    let id = r["id"].as_str().unwrap().to_string();
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = eventually(
        Duration::from_secs(10),
        "bounced, in the outbox",
        || async {
            let p = a.get("/admin/outbox").await;
            if p.text.contains("Refused by the mail server") {
                Ok(p)
            } else {
                Err(p.text)
            }
        },
    )
    .await;
    assert!(
        page.text.contains("550"),
        "the relay's words: {}",
        page.text
    );
    assert!(page.text.contains(r["code"].as_str().unwrap()));
    let msg = app
        .db()
        .read(move |c| innkeep::store::messages::of_reservation(c, &id))
        .await
        .unwrap()
        .remove(0);
    let again = a
        .post(
            &format!("/admin/outbox/{}", msg.id),
            &[("csrf", &Browser::csrf(&page))],
        )
        .await;
    assert_eq!(again.status, 303);
    let taken = relay.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(taken[0].header("Message-ID"), Some(msg.message_id.clone()));

    // The pages in a browser: axe, and a look.
    let Some(b) = crate::support::browser::chrome(1280, 2200).await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "root", &password).await;
    b.client
        .goto(&format!("{base}/admin/outbox"))
        .await
        .unwrap();
    b.wait_for(Locator::Css("table")).await;
    b.axe("Outbox").await;
    b.screenshot("desk-outbox").await;
    b.client
        .goto(&format!(
            "{base}/reservations/{}",
            r["id"].as_str().unwrap()
        ))
        .await
        .unwrap();
    b.wait_for(Locator::Id("messages")).await;
    b.axe("Reservation with its messages").await;
    b.screenshot("desk-reservation-messages").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_api_lists_a_reservations_messages_and_sends_the_confirmation_again() {
    let relay = Relay::start().await;
    let app = hotel(&relay).await;
    let r = booking(&app, Some("en"), Some("giulia@example.com")).await;
    let id = r["id"].as_str().unwrap();
    relay.wait_for(1, Duration::from_secs(10)).await;
    let path = format!("/v1/reservations/{id}/messages");
    let listed = eventually(Duration::from_secs(10), "the confirmation sent", || async {
        let list = app.get(&path).await.expect(200).body;
        if list["data"][0]["status"] == "sent" {
            Ok(list)
        } else {
            Err(list)
        }
    })
    .await;
    let first = &listed["data"][0];
    assert_eq!(listed["data"].as_array().unwrap().len(), 1);
    assert_eq!(first["kind"], "confirmation");
    assert_eq!(first["recipient"], "giulia@example.com");
    assert_eq!(first["language"], "en");
    assert_eq!(
        first["message_id"],
        format!("<{id}.v1.confirmation@hotel.test>")
    );
    assert!(first["sent_at"].is_string());

    let again = app.post(&path, json!({})).await.expect(202).body;
    assert_eq!(again["kind"], "confirmation");
    assert_eq!(
        again["message_id"],
        format!("<{id}.v1.confirmation.again1@hotel.test>")
    );
    let taken = relay.wait_for(2, Duration::from_secs(10)).await;
    assert_eq!(
        taken[1].header("Message-ID").unwrap(),
        again["message_id"].as_str().unwrap()
    );
    assert_eq!(
        app.get(&path).await.expect(200).body["data"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // An unknown booking is said so; without a relay nothing can be sent.
    let unknown = app.get("/v1/reservations/res_nope/messages").await;
    assert_eq!(unknown.status, 404);
    let unmailed = spawn_app().await;
    let rt = unmailed.room_type("DBL", 2).await;
    unmailed.room("101", &rt).await;
    let guest = unmailed.guest("Ana", "Horvat").await;
    let res = unmailed
        .reserve(&guest, &rt, &day(3), &day(5))
        .await
        .expect(201)
        .id();
    let off = unmailed
        .post(&format!("/v1/reservations/{res}/messages"), json!({}))
        .await;
    assert_eq!(off.status, 409, "{}", off.text);
    assert_eq!(off.body["code"], "mail_off");
}
