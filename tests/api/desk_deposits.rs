//! Deposits at the desk: the reservation page says what is due, paid and outstanding and
//! records a deposit (a mistyped amount refused next to its field, what was typed kept);
//! Today lists deposits due until they are paid; in a real browser both pages pass axe and
//! are photographed.

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::plans::plans;
use crate::support::{TestApp, day, spawn_app};

/// A booking on the flexible plan (30 % deposit 14 days before) arriving in 14 days, so its
/// deposit is due today: the reservation's id and code.
async fn due_today(app: &TestApp) -> (String, String) {
    let (rt, flex, _) = plans(app, 2).await;
    let guest = app.guest("Ana", "Kovač").await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": flex,
                   "arrival": day(14), "departure": day(16), "adults": 2}),
        )
        .await
        .expect(201)
        .body;
    (
        r["id"].as_str().unwrap().into(),
        r["code"].as_str().unwrap().into(),
    )
}

#[tokio::test]
async fn a_deposit_due_is_on_today_until_it_is_recorded_at_the_desk() {
    let app = spawn_app().await;
    let (id, code) = due_today(&app).await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let today = b.get("/").await;
    assert!(today.text.contains("Deposits due"), "{}", today.text);
    assert!(today.text.contains(&code) && today.text.contains("EUR 60.00"));

    let page = b.get(&format!("/reservations/{id}")).await;
    assert!(page.text.contains("still due EUR 60.00"), "{}", page.text);
    assert!(
        page.text.contains("name=\"amount\" value=\"60.00\""),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let path = format!("/reservations/{id}/deposit");
    let wrong = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("amount", "sixty"),
                ("payment_method", "card"),
            ],
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(
        wrong.text.contains("id=\"deposit-amount-error\""),
        "{}",
        wrong.text
    );
    assert!(
        wrong.text.contains("value=\"sixty\""),
        "what was typed stays"
    );
    let too_much = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("amount", "500.00"),
                ("payment_method", "card"),
            ],
        )
        .await;
    assert_eq!(too_much.status, 422, "{}", too_much.text);
    assert!(
        too_much.text.contains("less the advances already paid"),
        "{}",
        too_much.text
    );
    let done = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("amount", "60.00"),
                ("payment_method", "cash"),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let page = b
        .get(&format!("/reservations/{id}?done=deposit-recorded"))
        .await;
    assert!(
        page.text.contains("The deposit is recorded"),
        "{}",
        page.text
    );
    assert!(page.text.contains("paid EUR 60.00"), "{}", page.text);
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["deposit"]["outstanding"], 0, "{r}");
    let today = b.get("/").await;
    assert!(
        !today.text.contains("Deposits due"),
        "paid, it leaves Today"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_deposit_pages_in_a_browser() {
    let Some(b) = chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let (id, code) = due_today(&app).await;
    let password = staff(&app, "marta", "front_desk").await;
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "marta", &password).await;
    let c = &b.client;
    c.goto(&format!("{base}/")).await.unwrap();
    b.wait_for(Locator::Id("deposits-due")).await;
    b.axe("Today with a deposit due").await;
    b.screenshot("desk-today-deposit-due").await;
    b.click(Locator::LinkText(&code)).await;
    b.wait_for(Locator::Id("deposit-amount")).await;
    b.axe("Reservation with its deposit").await;
    b.screenshot("desk-reservation-deposit").await;
    b.click(Locator::Css(
        "#deposit button[type=submit], form[action$='/deposit'] button",
    ))
    .await;
    b.wait_for(Locator::Css(".flash, [role=status]")).await;
    b.screenshot("desk-reservation-deposit-recorded").await;
    let r = app.get(&format!("/v1/reservations/{id}")).await.body;
    assert_eq!(r["deposit"]["paid"], 6000, "{r}");
}
