//! The revenue and payments reports against the invoices and payments the test made: two
//! stays (rooms, the city tax, an extra from the catalogue and a charge typed at the desk),
//! one paid in cash and then reversed with part given back, one paid by card; the revenue
//! by department and VAT rate adds up to the invoices' own lines, credit note included,
//! and the cash drawer to what was taken and given back.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::support::stay::hotel;
use crate::support::{TestApp, day, spawn_app};

/// A stay of the hotel's guest in `room`, with an extra and a typed charge, checked out
/// paying by `method`: the invoice.
async fn stay(
    app: &TestApp,
    h: &crate::support::stay::Hotel,
    room: &str,
    extra: &str,
    method: &str,
) -> Value {
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": h.guest, "room_type_id": h.room_type, "room_id": room,
                   "arrival": day(0), "departure": day(2), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    app.post(
        &format!("/v1/reservations/{r}/extras"),
        json!({"extra_id": extra, "count": 1}),
    )
    .await
    .expect(201);
    app.post(
        &format!("/v1/reservations/{r}/charges"),
        json!({"description": "Minibar", "quantity": 2, "unit_price": 350}),
    )
    .await
    .expect(201);
    app.post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    app.post(
        "/v1/check-out",
        json!({"reservation_id": r, "payments": [{"method": method}]}),
    )
    .await
    .expect(200)
    .body["invoice"]
        .clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn revenue_and_the_cash_drawer_add_up_to_the_invoices_and_payments() {
    let app = spawn_app().await;
    let h = hotel(&app, 2).await;
    let extra = app
        .post(
            "/v1/extras",
            json!({"code": "BRK", "name": {"en": "Breakfast"}, "price": 1200, "tax_rate": 1000,
                   "unit": "per_stay"}),
        )
        .await
        .expect(201)
        .id();
    let cash = stay(&app, &h, &h.rooms[0], &extra, "cash").await;
    let card = stay(&app, &h, &h.rooms[1], &extra, "card").await;
    let cn = app
        .post(
            "/v1/invoices",
            json!({"corrects_invoice_id": cash["id"], "reason": "billed twice"}),
        )
        .await
        .expect(201)
        .body;
    app.post(
        &format!("/v1/invoices/{}/payments", cn["id"].as_str().unwrap()),
        json!({"amount": 1000, "method": "cash"}),
    )
    .await
    .expect(201);

    // What the invoices' own lines say, by department and by VAT rate.
    let mut by_department: BTreeMap<String, i64> = BTreeMap::new();
    let mut by_rate: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
    for inv in [&cash, &card, &cn] {
        for l in inv["lines"].as_array().unwrap() {
            let d = match (
                l["kind"].as_str().unwrap(),
                l["description"].as_str().unwrap(),
            ) {
                ("accommodation", _) => "rooms",
                ("city_tax", _) => "city_tax",
                ("charge", "Minibar") => "other",
                ("charge", _) => "extra:BRK",
                (other, _) => panic!("unexpected line kind {other}"),
            };
            *by_department.entry(d.into()).or_default() += l["gross_amount"].as_i64().unwrap();
            let e = by_rate.entry(l["tax_rate"].as_i64().unwrap()).or_default();
            e.0 += l["net_amount"].as_i64().unwrap();
            e.1 += l["tax_amount"].as_i64().unwrap();
        }
    }
    let range = format!("from={}&to={}", day(-1), day(3));
    let r = app
        .get(&format!("/v1/reports/revenue?{range}"))
        .await
        .expect(200)
        .body;
    let got: BTreeMap<String, i64> = r["departments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["department"].as_str().unwrap().to_string(),
                d["amounts"]["gross"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, by_department, "{r}");
    assert_eq!(r["departments"][0]["department"], "rooms", "rooms first");
    let extra_row = r["departments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["department"] == "extra:BRK")
        .unwrap();
    assert!(extra_row["name"].as_str().unwrap().contains("Breakfast"));
    for v in r["vat"].as_array().unwrap() {
        let (net, tax) = by_rate[&v["tax_rate"].as_i64().unwrap()];
        assert_eq!(
            (v["amounts"]["net"].as_i64(), v["amounts"]["tax"].as_i64()),
            (Some(net), Some(tax))
        );
    }
    // The reversed stay nets to nothing: the total is the card stay's.
    assert_eq!(r["total"]["gross"], card["totals"]["gross"]);

    let p = app
        .get(&format!("/v1/reports/payments?{range}"))
        .await
        .expect(200)
        .body;
    let methods: BTreeMap<String, (i64, i64, i64, i64)> = p["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let n = |k: &str| m[k].as_i64().unwrap();
            (
                m["method"].as_str().unwrap().to_string(),
                (n("received"), n("refunded"), n("net"), n("count")),
            )
        })
        .collect();
    let cash_total = cash["totals"]["gross"].as_i64().unwrap();
    let card_total = card["totals"]["gross"].as_i64().unwrap();
    assert_eq!(methods["cash"], (cash_total, 1000, cash_total - 1000, 2));
    assert_eq!(methods["card"], (card_total, 0, card_total, 1));
    let days = p["days"].as_array().unwrap();
    assert!(days.iter().all(|d| d["date"] == day(0)), "{p}");

    // The same as CSV, by Accept (amounts in major units).
    let csv = |path: String| {
        let app = &app;
        async move {
            let r = app
                .client
                .get(app.url(&path))
                .bearer_auth(&app.token)
                .header("Accept", "text/csv")
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            assert!(
                r.headers()["content-type"]
                    .to_str()
                    .unwrap()
                    .starts_with("text/csv")
            );
            r.text().await.unwrap()
        }
    };
    let revenue = csv(format!("/v1/reports/revenue?{range}")).await;
    let total = crate::support::stay::amounts(&r["total"]).2;
    assert!(
        revenue.lines().last().unwrap().starts_with("total,,")
            && revenue.contains(&format!(",{}.{:02},EUR\r\n", total / 100, total % 100)),
        "{revenue}"
    );
    let payments = csv(format!("/v1/reports/payments?{range}")).await;
    assert!(
        payments.contains(&format!(
            "total,cash,{}.{:02},10.00,",
            cash_total / 100,
            cash_total % 100
        )),
        "{payments}"
    );

    // Outside the range, nothing.
    let before = format!("from={}&to={}", day(-30), day(-1));
    let empty = app
        .get(&format!("/v1/reports/payments?{before}"))
        .await
        .expect(200)
        .body;
    assert!(empty["days"].as_array().unwrap().is_empty());
    let bad = app
        .get(&format!(
            "/v1/reports/revenue?from={}&to={}",
            day(3),
            day(1)
        ))
        .await;
    assert_eq!(bad.status, 422);
    assert_eq!(bad.body["errors"][0]["field"], "to");

    // The desk's Reports page shows the month's revenue and cash drawer.
    let password = crate::support::desk::staff(&app, "olga", "manager").await;
    let b = crate::support::desk::Browser::sign_in(&app, "olga", &password).await;
    let month = day(0)[..7].to_string();
    let page = b.get(&format!("/reports?month={month}")).await;
    for wanted in [
        "Revenue invoiced",
        "Breakfast",
        "Other charges",
        "City tax",
        "Given back",
        "Cash",
        "Card",
        "Bookings made this month",
        "Booked ahead (average)",
    ] {
        assert!(
            page.text.contains(wanted),
            "{wanted} missing: {}",
            page.text
        );
    }
    let Some(c) = crate::support::browser::chrome(1280, 2600).await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "olga", &password).await;
    c.client
        .goto(&format!("{base}/reports?month={month}"))
        .await
        .unwrap();
    c.wait_for(fantoccini::Locator::Id("payments")).await;
    c.axe("Reports with money").await;
    c.screenshot("desk-report-money").await;
}
