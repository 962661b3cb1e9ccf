//! Administration › Channels at the desk: the mapping chosen from the channel manager's own
//! lists (a plan of another room type, or an id it does not list, refused next to its line
//! with the choices kept), saved and sent at once; bookings through it, one overbooked and
//! shown on Today and on the page; "Send everything again"; the page without a channel
//! manager, and for other roles. Then the page in a browser in each language, checked with
//! axe and photographed.

use std::collections::BTreeMap;
use std::time::Duration;

use fantoccini::Locator;

use innkeep::config::channel::ChannelConfig;
use innkeep::config::compliance::Secret;

use crate::support::browser::chrome_speaking;
use crate::support::channex_sim::{KEY, PROPERTY, Sim, revision};
use crate::support::desk::{Browser, staff};
use crate::support::plans::plans;
use crate::support::{Spawn, TestApp, day, eventually, spawn_app};

/// A hotel connected to `sim` with nothing mapped in the file.
async fn hotel(sim: &Sim) -> TestApp {
    let cfg = ChannelConfig {
        provider: "channex".into(),
        url: sim.url(),
        api_key: Secret::new(KEY),
        property_id: PROPERTY.into(),
        horizon_days: 30,
        room_types: BTreeMap::new(),
        rate_plans: BTreeMap::new(),
    };
    Spawn::new().config(|c| c.channel = Some(cfg)).start().await
}

async fn sim() -> Sim {
    let sim = Sim::start(&["ch-fam", "ch-dbl"], &["ch-flex", "ch-nr", "ch-dbl-bar"]).await;
    sim.plans_of("ch-fam", &["ch-flex", "ch-nr"]);
    sim.plans_of("ch-dbl", &["ch-dbl-bar"]);
    sim
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_maps_from_the_channel_managers_lists_and_sees_overbookings() {
    let sim = sim().await;
    let app = hotel(&sim).await;
    let (rt, flex, nr) = plans(&app, 2).await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/channels").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("Sync health"));
    assert!(page.text.contains(&format!("name=\"map.{rt}\"")));
    assert!(
        page.text
            .contains("<option value=\"ch-fam\">CH-FAM</option>"),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let rt_field = format!("map.{rt}");
    let flex_field = format!("map.{flex}");
    let nr_field = format!("map.{nr}");

    // A plan of another room type at the channel manager: refused at its line, kept.
    let bad = a
        .post(
            "/admin/channels/mapping",
            &[
                ("csrf", &csrf),
                (&rt_field, "ch-fam"),
                (&flex_field, "ch-dbl-bar"),
                (&nr_field, "typed-by-hand"),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(
        bad.text.contains(&format!("id=\"map-{flex}-error\"")),
        "{}",
        bad.text
    );
    assert!(bad.text.contains("belongs to another room type"));
    assert!(bad.text.contains(&format!("id=\"map-{nr}-error\"")));
    assert!(
        bad.text
            .contains("is not one of the channel manager&#39;s rate plans")
    );
    assert!(
        bad.text.contains("<option value=\"ch-fam\" selected>"),
        "the choice kept"
    );

    let saved = a
        .post(
            "/admin/channels/mapping",
            &[
                ("csrf", &csrf),
                (&rt_field, "ch-fam"),
                (&flex_field, "ch-flex"),
                (&nr_field, ""),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.text);
    let page = a.get("/admin/channels?done=channel-mapped").await;
    assert!(page.text.contains("The mapping is saved"));
    assert!(page.text.contains("<option value=\"ch-flex\" selected>"));
    // Only the plans of the room type it is mapped to are offered for FAM's plans.
    assert!(
        !page.text.contains("<option value=\"ch-dbl-bar\""),
        "{}",
        page.text
    );
    eventually(Duration::from_secs(40), "the mapping sent", || async {
        if sim.availability("ch-fam", day(5).parse().unwrap()) == Some(2)
            && sim.night("ch-flex", day(5).parse().unwrap()).is_some()
        {
            Ok(())
        } else {
            Err(())
        }
    })
    .await;
    assert!(
        sim.night("ch-nr", day(5).parse().unwrap()).is_none(),
        "NR is not mapped"
    );

    // Three bookings for two rooms: the third is taken all the same, and flagged.
    let mut last = String::new();
    for (n, code) in ["6001", "6002", "6003"].iter().enumerate() {
        last = sim.book(revision(&format!("bk-{n}"), "new", code, 0, 2, "ch-fam"));
    }
    eventually(Duration::from_secs(40), "the bookings taken", || async {
        if sim.acked(&last) { Ok(()) } else { Err(()) }
    })
    .await;
    let today = a.get("/").await;
    assert!(
        today.text.contains("Overbooked from a booking site"),
        "{}",
        today.text
    );
    assert!(today.text.contains("Booking.com 6003"));
    let page = a.get("/admin/channels").await;
    assert!(page.text.contains("Booking.com 6003"));
    let over = app.get("/v1/channel/health").await.body["overbooked"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Among today's arrivals, the overbooked stay is marked, and only it.
    let marked: Vec<&str> = today
        .text
        .split("<tr>")
        .filter(|row| row.contains("badge overbooked"))
        .collect();
    assert_eq!(marked.len(), 1, "{}", today.text);
    assert!(
        marked[0].contains(&format!("href=\"/reservations/{over}\""))
            && marked[0].contains("Overbooked: room type full"),
        "{}",
        marked[0]
    );
    let reservation = a.get(&format!("/reservations/{over}")).await;
    assert!(
        reservation
            .text
            .contains("Booking.com 6003 (paid to Booking.com) · overbooked"),
        "{}",
        reservation.text
    );

    let resent = a.post("/admin/channels/sync", &[("csrf", &csrf)]).await;
    assert_eq!(resent.status, 303);
    let page = a.get("/admin/channels?done=channel-resent").await;
    assert!(
        page.text
            .contains("Everything goes to the channel manager again")
    );

    let desk = staff(&app, "marta", "front_desk").await;
    let m = Browser::sign_in(&app, "marta", &desk).await;
    assert_eq!(m.get("/admin/channels").await.status, 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_channel_manager_the_page_says_how_to_connect_one() {
    let app = spawn_app().await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get("/admin/channels").await;
    assert_eq!(page.status, 200);
    assert!(page.text.contains("No channel manager is connected"));
    assert!(a.get("/admin").await.text.contains("/admin/channels"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_channels_page_in_a_browser_in_each_language() {
    let words = [
        ("en", "Mapping"),
        ("it", "Corrispondenze"),
        ("hr", "Povezivanje"),
    ];
    for (lang, heading) in words {
        let Some(b) = chrome_speaking(1280, 1500, lang).await else {
            return;
        };
        let sim = sim().await;
        let app = hotel(&sim).await;
        let (rt, _, _) = plans(&app, 1).await;
        let password = staff(&app, "root", "admin").await;
        let base = format!("http://{}", app.addr);
        b.sign_in(&base, "root", &password).await;
        let c = &b.client;
        c.goto(&format!("{base}/admin/channels")).await.unwrap();
        let h = b.wait_for(Locator::Id("mapping")).await;
        assert_eq!(h.text().await.unwrap(), heading);
        // A plan mapped before its room type is: refused next to its line.
        let select = c.find(Locator::Css("tr.plan select")).await.unwrap();
        select.select_by_value("ch-dbl-bar").await.unwrap();
        let room = c.find(Locator::Id(&format!("map-{rt}"))).await.unwrap();
        room.select_by_value("ch-fam").await.unwrap();
        b.click(Locator::Css(
            "form[action='/admin/channels/mapping'] button",
        ))
        .await;
        b.wait_for(Locator::Css(".field-error")).await;
        b.axe("Channels with a refused line").await;
        b.screenshot(&format!("desk-channels-refused-{lang}")).await;
        let room = c.find(Locator::Id(&format!("map-{rt}"))).await.unwrap();
        assert_eq!(room.prop("value").await.unwrap().as_deref(), Some("ch-fam"));
        let plan = c.find(Locator::Css("tr.plan select")).await.unwrap();
        assert_eq!(
            plan.prop("value").await.unwrap().as_deref(),
            Some("ch-dbl-bar"),
            "the refused choice kept"
        );
        plan.select_by_value("ch-flex").await.unwrap();
        b.click(Locator::Css(
            "form[action='/admin/channels/mapping'] button",
        ))
        .await;
        b.wait_for(Locator::Css(".flash")).await;
        let booked = sim.book(revision("bk-1", "new", "7001", 0, 1, "ch-fam"));
        let second = sim.book(revision("bk-2", "new", "7002", 0, 1, "ch-fam"));
        eventually(Duration::from_secs(40), "taken", || async {
            if sim.acked(&booked) && sim.acked(&second) {
                Ok(())
            } else {
                Err(())
            }
        })
        .await;
        c.goto(&format!("{base}/admin/channels")).await.unwrap();
        b.wait_for(Locator::Id("overbooked")).await;
        b.axe("Channels with an overbooking").await;
        b.screenshot(&format!("desk-channels-{lang}")).await;
        c.goto(&format!("{base}/")).await.unwrap();
        b.wait_for(Locator::Id("overbooked")).await;
        b.axe("Today with an overbooking").await;
        b.screenshot(&format!("desk-today-overbooked-{lang}")).await;
    }
}
