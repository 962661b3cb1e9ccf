//! Close the day on the desk: the wizard lists the arrivals still expected, the room to
//! clean and the cash recorded; a close without the cash counted is refused next to the
//! field with the ticks kept; the close leads to its printable certificate, every check
//! passed and the chain verified; front-desk staff cannot close. In a browser in English,
//! Italian and Croatian: axe on the wizard and the certificate, a screenshot of each.

use fantoccini::Locator;

use crate::support::day_close::a_day_to_close;
use crate::support::desk::{Browser, staff};
use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread")]
async fn the_wizard_closes_the_day_and_shows_its_certificate() {
    let app = spawn_app().await;
    let d = a_day_to_close(&app).await;
    app.set_today(1);
    let password = staff(&app, "olga", "manager").await;
    let b = Browser::sign_in(&app, "olga", &password).await;
    let page = b.get("/day-close").await;
    assert_eq!(page.status, 200);
    for wanted in [
        "Arrivals that did not come",
        &format!("name=\"no_show_{}\"", d.missing),
        &format!("name=\"no_show_{}\"", d.late),
        "<strong>100</strong>",
        "Cash recorded",
    ] {
        assert!(page.text.contains(wanted), "{wanted}: {}", page.text);
    }
    let csrf = Browser::csrf(&page);
    let tick = format!("no_show_{}", d.missing);
    let refused = b
        .post(
            "/day-close",
            &[("csrf", &csrf), (&tick, "yes"), ("note", "Quiet night.")],
        )
        .await;
    assert_eq!(refused.status, 422);
    assert!(
        refused.text.contains("cash_counted-error"),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains(&format!(
            "id=\"{tick}\" name=\"{tick}\" value=\"yes\" checked"
        )),
        "the tick stays: {}",
        refused.text
    );
    assert!(refused.text.contains("Quiet night."), "the note stays");

    let cash = format!("{}.{:02}", d.cash / 100, d.cash % 100);
    let done = b
        .post(
            "/day-close",
            &[("csrf", &csrf), (&tick, "yes"), ("cash_counted", &cash)],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let to = done.header("location").unwrap();
    assert_eq!(to, format!("/day-closes/{}?done=day-closed", day(0)));
    let certificate = b.get(&to).await;
    for wanted in [
        "The day is closed.",
        "This certificate verifies",
        "Cash counted equals cash recorded",
        "Invoice numbers without a gap",
    ] {
        assert!(
            certificate.text.contains(wanted),
            "{wanted}: {}",
            certificate.text
        );
    }
    assert!(
        !certificate.text.contains("✗"),
        "every check passed: {}",
        certificate.text
    );
    let list = b.get("/day-closes").await;
    assert!(list.text.contains("6 of 6 passed"), "{}", list.text);

    let desk_pw = staff(&app, "marta", "front_desk").await;
    let desk = Browser::sign_in(&app, "marta", &desk_pw).await;
    assert_eq!(desk.get("/day-close").await.status, 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_wizard_and_certificate_read_well_in_three_languages() {
    for (lang, tick_label) in [("en", "Close"), ("it", "Chiudi"), ("hr", "Zaključi")] {
        let app = spawn_app().await;
        let d = a_day_to_close(&app).await;
        app.set_today(1);
        let password = staff(&app, "olga", "manager").await;
        let Some(c) = crate::support::browser::chrome_speaking(1280, 1400, lang).await else {
            return;
        };
        let base = format!("http://{}", app.addr);
        c.sign_in(&base, "olga", &password).await;
        c.client.goto(&format!("{base}/day-close")).await.unwrap();
        c.wait_for(Locator::Id("cash_counted")).await;
        c.axe(&format!("Close the day ({lang})")).await;
        c.screenshot(&format!("desk-day-close-{lang}")).await;
        c.click(Locator::Id(&format!("no_show_{}", d.missing)))
            .await;
        c.wait_for(Locator::Id("cash_counted"))
            .await
            .send_keys(&format!("{}.{:02}", d.cash / 100, d.cash % 100))
            .await
            .unwrap();
        let button = c
            .wait_for(Locator::Css("form.day-close button[type=submit]"))
            .await;
        assert!(button.text().await.unwrap().starts_with(tick_label));
        button.click().await.unwrap();
        c.wait_for(Locator::Css("dl.hash")).await;
        c.axe(&format!("Day certificate ({lang})")).await;
        c.screenshot(&format!("desk-day-certificate-{lang}")).await;
    }
}
