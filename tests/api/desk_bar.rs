//! The top of every page at a receptionist's usual 1366 px screen: the sign-in page names the
//! hotel, and the bar (every screen an admin may use, the date, who is signed in, Sign out)
//! stays on one line in English, Italian and Croatian (at 1280 px too, with the date short).

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::spawn_app;

#[tokio::test(flavor = "multi_thread")]
async fn the_sign_in_names_the_hotel_and_the_bar_fits_one_line_at_1366() {
    let Some(b) = chrome(1366, 768).await else {
        return;
    };
    let app = spawn_app().await;
    app.put("/v1/settings", json!({"name": "Hotel Adria"}))
        .await
        .expect(200);
    // Staff first: a new installation shows the first-run page instead of the sign-in.
    let password = staff(&app, "direttrice", "admin").await;
    let base = format!("http://{}", app.addr);
    let c = &b.client;
    c.goto(&format!("{base}/")).await.unwrap();
    b.wait_for(Locator::Css("input[name=username]")).await;
    let sign_in = b.wait_for(Locator::Css("body")).await.text().await.unwrap();
    assert!(sign_in.contains("Hotel Adria"), "{sign_in}");
    b.screenshot("desk-sign-in-hotel").await;
    b.axe("Sign-in with the hotel's name").await;
    b.sign_in(&base, "direttrice", &password).await;
    let http = Browser::sign_in(&app, "direttrice", &password).await;
    for lang in ["en", "it", "hr"] {
        let csrf = Browser::csrf(&http.get("/account/password").await);
        http.post("/account/language", &[("csrf", &csrf), ("language", lang)])
            .await;
        // At 1366 px the date in words; at 1280 px the short date, and still one line.
        for (width, date) in [(1366, "long"), (1280, "short")] {
            c.set_window_size(width, 768).await.unwrap();
            c.goto(&format!("{base}/")).await.unwrap();
            b.wait_for(Locator::Css(".bar .who")).await;
            let (height, shown) = c
                .execute(
                    "const bar = document.querySelector('.bar');
                     const shown = [...bar.querySelectorAll('.today span')]
                       .filter(s => s.offsetWidth > 0).map(s => s.className);
                     return [bar.getBoundingClientRect().height, shown.join()];",
                    vec![],
                )
                .await
                .unwrap()
                .as_array()
                .map(|v| (v[0].as_f64().unwrap(), v[1].as_str().unwrap().to_string()))
                .unwrap();
            b.screenshot(&format!("desk-bar-{width}-{lang}")).await;
            b.axe(&format!("Today at {width} px ({lang})")).await;
            assert!(
                height < 70.0,
                "the bar wraps in {lang} at {width} px: {height}px high"
            );
            assert_eq!(shown, date, "the date shown in {lang} at {width} px");
        }
    }
}
