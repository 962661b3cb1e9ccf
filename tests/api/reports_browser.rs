//! The report pages in a browser in English, Italian and Croatian: the occupancy chart is an
//! SVG labelled for a screen reader, the page passes axe and prints (Chromium's PDF has the
//! title and the chart's caption, not the screen's buttons); the ISTAT movement and the
//! compliance calendar pass axe too. A screenshot of each.

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::{chrome_speaking, pdf_text};
use crate::support::desk::staff;
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn the_report_pages_read_and_print_in_three_languages() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let guest = app.guest("Ana", "Horvat").await;
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": guest, "room_type_id": rt, "arrival": "2026-12-03",
               "departure": "2026-12-06", "adults": 1, "nightly_rate": 11000}),
    )
    .await
    .expect(201);
    let password = staff(&app, "olga", "admin").await;
    let base = format!("http://{}", app.addr);
    for (lang, title) in [
        ("en", "Occupancy, December 2026"),
        ("it", "Occupazione, dicembre 2026"),
        ("hr", "Popunjenost, prosin"),
    ] {
        let Some(c) = chrome_speaking(1280, 1400, lang).await else {
            return;
        };
        c.sign_in(&base, "olga", &password).await;
        c.client
            .goto(&format!("{base}/reports?month=2026-12"))
            .await
            .unwrap();
        let chart = c.wait_for(Locator::Css("svg.chart")).await;
        assert_eq!(chart.attr("role").await.unwrap().as_deref(), Some("img"));
        let text = c.main_text_with(title).await;
        assert!(text.contains(title), "{lang}: {text}");
        c.axe(&format!("Reports ({lang})")).await;
        c.screenshot(&format!("desk-report-{lang}")).await;
        let pdf = c.print_pdf(&format!("desk-report-{lang}")).await;
        if let Some(printed) = pdf_text(&pdf) {
            assert!(printed.contains(title), "{lang}: {printed}");
        }
        for (path, name) in [
            ("/reports/istat?month=2026-12", "istat"),
            ("/compliance/calendar?month=2026-12", "calendar"),
            ("/day-closes", "day-closes"),
        ] {
            c.client.goto(&format!("{base}{path}")).await.unwrap();
            c.wait_for(Locator::Css("main h1")).await;
            c.axe(&format!("{name} ({lang})")).await;
            c.screenshot(&format!("desk-{name}-{lang}")).await;
        }
    }
}
