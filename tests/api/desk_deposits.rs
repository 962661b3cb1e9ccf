//! Deposits at the desk: the reservation page says what is due, paid and outstanding and
//! records a deposit (a mistyped amount refused next to its field, what was typed kept);
//! Today lists deposits due until they are paid; in a real browser, in each language, both
//! pages pass axe, a mistyped amount is refused next to its field with what was typed kept,
//! and each state is photographed.

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::chrome_speaking;
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
async fn the_deposit_pages_in_a_browser_in_each_language() {
    // (language, Today's heading, the amount's label, the refusal next to it)
    let words = [
        ("en", "Deposits due", "Amount", "write an amount"),
        ("it", "Acconti da incassare", "Importo", "importo"),
        ("hr", "Predujmovi na naplatu", "Iznos", "iznos"),
    ];
    for (lang, heading, label, refusal) in words {
        let Some(b) = chrome_speaking(1280, 900, lang).await else {
            return;
        };
        let app = spawn_app().await;
        let (id, code) = due_today(&app).await;
        let password = staff(&app, "marta", "front_desk").await;
        let base = format!("http://{}", app.addr);
        b.sign_in(&base, "marta", &password).await;
        let c = &b.client;
        c.goto(&format!("{base}/")).await.unwrap();
        let due = b.wait_for(Locator::Id("deposits-due")).await;
        assert_eq!(due.text().await.unwrap(), heading);
        b.axe("Today with a deposit due").await;
        b.screenshot(&format!("desk-today-deposit-due-{lang}"))
            .await;
        b.click(Locator::LinkText(&code)).await;
        let amount = b.wait_for(Locator::Id("deposit-amount")).await;
        let for_amount = c
            .find(Locator::Css("label[for=deposit-amount]"))
            .await
            .unwrap();
        assert_eq!(for_amount.text().await.unwrap(), label);
        // A mistyped amount: refused next to its field, what was typed kept.
        amount.clear().await.unwrap();
        amount.send_keys("sixty").await.unwrap();
        b.click(Locator::Css("form[action$='/deposit'] button"))
            .await;
        let error = b.wait_for(Locator::Id("deposit-amount-error")).await;
        let said = error.text().await.unwrap();
        assert!(said.to_lowercase().contains(refusal), "{lang}: {said}");
        let kept = c.find(Locator::Id("deposit-amount")).await.unwrap();
        assert_eq!(kept.prop("value").await.unwrap().as_deref(), Some("sixty"));
        b.axe("Reservation with a refused deposit").await;
        b.screenshot(&format!("desk-reservation-deposit-refused-{lang}"))
            .await;
        kept.clear().await.unwrap();
        kept.send_keys("60").await.unwrap();
        b.click(Locator::Css("form[action$='/deposit'] button"))
            .await;
        b.wait_for(Locator::Css(".flash")).await;
        b.screenshot(&format!("desk-reservation-deposit-recorded-{lang}"))
            .await;
        let r = app.get(&format!("/v1/reservations/{id}")).await.body;
        assert_eq!(r["deposit"]["paid"], 6000, "{r}");
    }
}
