//! Administration › Rates at the desk: the grid of plans over two weeks with each night's
//! price and restrictions in words, a range changed on chosen weekdays from the form, a
//! refusal shown next to its field with what was typed kept, other roles refused; and in a
//! real browser, with axe and a screenshot.

use fantoccini::Locator;
use serde_json::json;

use crate::support::browser::chrome;
use crate::support::desk::{Browser, staff};
use crate::support::{TestApp, day, spawn_app};

/// A double room with a flexible plan and a non-refundable one 10 % cheaper: the plans.
async fn priced(app: &TestApp) -> (String, String) {
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    let flex = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "FLEX",
                   "name": {"en": "Flexible", "it": "Flessibile"}, "default_price": 9500}),
        )
        .await
        .expect(201)
        .id();
    let nr = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "NR", "name": {"en": "Non-refundable"},
                   "parent_id": flex, "derivation": {"kind": "percent", "value": -1000},
                   "cancellation": {"fee": "all"}}),
        )
        .await
        .expect(201)
        .id();
    (flex, nr)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_changes_a_range_of_nights_from_the_grid() {
    let app = spawn_app().await;
    let (flex, nr) = priced(&app).await;
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = a.get(&format!("/admin/rates?from={}", day(0))).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("Flexible (FLEX)"), "{}", page.text);
    assert!(page.text.contains("EUR 95.00") && page.text.contains("EUR 85.50"));
    let csrf = Browser::csrf(&page);
    // Weekends of the two weeks: 120.00, a minimum stay of 2, and the last Sunday closed.
    let (from, to) = (day(0), day(13));
    let saved = a
        .post(
            "/admin/rates",
            &[
                ("csrf", &csrf),
                ("rate_plan_id", &flex),
                ("from", &from),
                ("to", &to),
                ("day-fri", "on"),
                ("day-sat", "on"),
                ("price", "120,00"),
                ("min_stay_arrival", "2"),
                ("closed_to_arrival", ""),
                ("stop_sell", ""),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.text);
    let nights = app
        .get(&format!("/v1/rates?rate_plan_id={nr}&from={from}&to={to}"))
        .await
        .expect(200)
        .body;
    let weekend: Vec<&serde_json::Value> = nights["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["price"] == 10800)
        .collect();
    assert_eq!(weekend.len(), 4, "two Fridays and two Saturdays, 10 % less");
    let grid = a.get(&format!("/admin/rates?from={from}")).await;
    assert!(grid.text.contains("EUR 120.00") && grid.text.contains("min. 2 nights"));
    // A backward range and a price that is not one are refused at their fields, kept.
    let bad = a
        .post(
            "/admin/rates",
            &[
                ("csrf", &csrf),
                ("rate_plan_id", &flex),
                ("from", &to),
                ("to", &from),
                ("day-mon", "on"),
                ("price", "lots"),
                ("min_stay_arrival", ""),
                ("closed_to_arrival", "on"),
                ("stop_sell", ""),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(bad.text.contains("id=\"price-error\""), "{}", bad.text);
    assert!(bad.text.contains("value=\"lots\""));
    assert!(bad.text.contains("<option value=\"on\" selected>"));
    // A receptionist has no Administration, but the board shows nights every plan closes.
    for (plan, flag, on) in [
        (&flex, "stop_sell", day(5)),
        (&nr, "stop_sell", day(5)),
        (&flex, "closed_to_arrival", day(6)),
        (&nr, "closed_to_arrival", day(6)),
        (&nr, "stop_sell", day(7)),
    ] {
        let mut body = json!({"rate_plan_id": plan, "from": on, "to": on});
        body[flag] = json!(true);
        app.put("/v1/rates", body).await.expect(200);
    }
    let reception = staff(&app, "desk", "front_desk").await;
    let r = Browser::sign_in(&app, "desk", &reception).await;
    assert_eq!(r.get("/admin/rates").await.status, 403);
    let board = r.get(&format!("/board?from={}", day(0))).await.text;
    let sales = &board[board.find("<tr class=\"sales\">").expect("a sales row")..];
    let sales = &sales[..sales.find("</tr>").unwrap()];
    let cells: Vec<&str> = sales
        .split("<td class=\"")
        .skip(1)
        .map(|c| c.split('"').next().unwrap())
        .collect();
    assert_eq!(&cells[5..8], ["stopped", "no-arrival", ""], "{sales}");
    assert!(sales.contains("not sold") && sales.contains("no arrivals"));
}

#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_the_rates_grid_shows_two_weeks_and_saves_a_range() {
    let Some(b) = chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let (flex, nr) = priced(&app).await;
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": flex, "from": day(3), "to": day(4), "stop_sell": true}),
    )
    .await
    .expect(200);
    app.put(
        "/v1/rates",
        json!({"rate_plan_id": nr, "from": day(3), "to": day(3), "stop_sell": true}),
    )
    .await
    .expect(200);
    let password = staff(&app, "root", "admin").await;
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "root", &password).await;
    let c = &b.client;
    c.goto(&format!("{base}/admin")).await.unwrap();
    b.click(Locator::LinkText("Rates")).await;
    b.wait_for(Locator::Css("table.rates")).await;
    b.axe("Rates").await;
    b.screenshot("desk-admin-rates").await;
    // A week at 99.00 from the form (the dates set as the date picker would).
    let script = format!(
        "document.getElementById('from').value = '{}'; document.getElementById('to').value = '{}';",
        day(0),
        day(6)
    );
    c.execute(&script, vec![]).await.unwrap();
    let price = b.wait_for(Locator::Id("price")).await;
    price.send_keys("99,00").await.unwrap();
    b.screenshot("desk-admin-rates-form").await;
    b.click(Locator::Css(
        "form[method=post][action='/admin/rates'] button[type=submit]",
    ))
    .await;
    if c.wait().for_element(Locator::Css(".flash")).await.is_err() {
        panic!("no flash: {}", c.source().await.unwrap_or_default());
    }
    let text = c
        .find(Locator::Css("table.rates"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        text.contains("EUR 99.00") && text.contains("Not sold"),
        "{text}"
    );
    b.axe("Rates, saved").await;
    b.screenshot("desk-admin-rates-saved").await;
    // The board marks the night every plan stops selling.
    c.goto(&format!("{base}/board?from={}", day(0)))
        .await
        .unwrap();
    b.wait_for(Locator::Css("tr.sales td.stopped")).await;
    b.axe("The board with a night not sold").await;
    b.screenshot("desk-board-not-sold").await;
}

/// In Italian and Croatian: the rates grid, a refused range (the error next to its field,
/// what was typed kept), a new booking's plans and a reservation on a plan, each in the
/// page's language, with axe.
#[tokio::test(flavor = "multi_thread")]
async fn the_price_pages_in_italian_and_croatian() {
    use crate::support::browser::chrome_speaking;
    for (lang, grid, refused, offers, plan) in [
        ("it", "Tariffe", "Prezzo per notte", "in tutto", "Tariffa"),
        ("hr", "Cijene", "Cijena po noći", "ukupno", "Cjenik"),
    ] {
        let Some(b) = chrome_speaking(1280, 1000, lang).await else {
            return;
        };
        let app = spawn_app().await;
        let (flex, nr) = priced(&app).await;
        app.put(
            "/v1/rates",
            json!({"rate_plan_id": nr, "from": day(2), "to": day(2), "min_stay_arrival": 3,
                   "stop_sell": true}),
        )
        .await
        .expect(200);
        app.put(
            "/v1/rates",
            json!({"rate_plan_id": flex, "from": day(2), "to": day(2), "stop_sell": true}),
        )
        .await
        .expect(200);
        let password = staff(&app, "root", "admin").await;
        let base = format!("http://{}", app.addr);
        b.sign_in(&base, "root", &password).await;
        let c = &b.client;
        c.goto(&format!("{base}/admin/rates")).await.unwrap();
        b.wait_for(Locator::Css("table.rates")).await;
        assert!(c.source().await.unwrap().contains(grid));
        b.axe(&format!("Rates ({lang})")).await;
        b.screenshot(&format!("desk-admin-rates-{lang}")).await;
        // The fortnight shown is the range offered. A price that is not one and a last
        // night cleared: each said next to its field in the page's language, the rest kept.
        c.execute("document.getElementById('to').value = ''", vec![])
            .await
            .unwrap();
        let price = b.wait_for(Locator::Id("price")).await;
        price.send_keys("tanto").await.unwrap();
        let min = b.wait_for(Locator::Id("min_stay_arrival")).await;
        min.send_keys("2").await.unwrap();
        b.click(Locator::Css(
            "form[method=post][action='/admin/rates'] button[type=submit]",
        ))
        .await;
        b.wait_for(Locator::Id("price-error")).await;
        let form = c.source().await.unwrap();
        assert!(
            form.contains(refused) && form.contains("value=\"tanto\""),
            "{lang}"
        );
        assert!(
            form.contains("value=\"2\""),
            "{lang}: the minimum stay typed is kept"
        );
        assert!(
            form.contains(&format!("value=\"{}\"", day(0))),
            "{lang}: the first night kept"
        );
        assert!(!form.contains("must be"), "{lang}: no English on the page");
        c.execute("document.getElementById('price').scrollIntoView()", vec![])
            .await
            .unwrap();
        b.axe(&format!("Rates refused ({lang})")).await;
        b.screenshot(&format!("desk-admin-rates-refused-{lang}"))
            .await;
        // A new booking: the plans, one of them refused by its rules.
        c.goto(&format!(
            "{base}/reservations/new?arrival={}&departure={}",
            day(2),
            day(3)
        ))
        .await
        .unwrap();
        b.wait_for(Locator::Css(".choices.offers")).await;
        let page = c.source().await.unwrap();
        assert!(
            page.contains(offers) && page.contains("offer-refused"),
            "{lang}"
        );
        b.axe(&format!("A new booking with plans ({lang})")).await;
        b.screenshot(&format!("desk-new-booking-plans-{lang}"))
            .await;
        // The board marks the night no plan sells.
        c.goto(&format!("{base}/board?from={}", day(0)))
            .await
            .unwrap();
        b.wait_for(Locator::Css("tr.sales td.stopped")).await;
        b.screenshot(&format!("desk-board-not-sold-{lang}")).await;
        // A reservation on a plan shows its plan.
        let rt = app.get("/v1/room-types").await.body["data"][0]["id"].clone();
        let guest = app.guest("Ana", "Kovač").await;
        let res = app
            .post(
                "/v1/reservations",
                json!({"primary_guest_id": guest, "room_type_id": rt, "rate_plan_id": flex,
                       "arrival": day(4), "departure": day(6), "adults": 2}),
            )
            .await
            .expect(201)
            .id();
        c.goto(&format!("{base}/reservations/{res}")).await.unwrap();
        let facts = b
            .wait_for(Locator::Css("dl.facts"))
            .await
            .text()
            .await
            .unwrap();
        assert!(facts.contains(plan), "{lang}: {facts}");
        b.axe(&format!("A reservation on a plan ({lang})")).await;
        b.screenshot(&format!("desk-reservation-plan-{lang}")).await;
    }
}
