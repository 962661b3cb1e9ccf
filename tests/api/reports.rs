//! The occupancy report against figures the test works out itself: a month with stays at
//! their own rates (one across the month's end, one cancelled, one checked out), night by
//! night and by month, as JSON and as CSV; a range the wrong way round refused by name;
//! the desk's page with its chart (an SVG described for a screen reader) and its CSV; the
//! page in a browser in Italian (axe, a screenshot).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde_json::{Value, json};

use crate::support::desk::{Browser, staff};
use crate::support::{TestApp, spawn_app};

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

/// Four rooms and these stays (arrival, departure, nightly rate, cancelled): what each
/// night sells, by the test's own count.
async fn month_of_stays(app: &TestApp) -> BTreeMap<NaiveDate, (i64, i64)> {
    let rt = app.room_type("DBL", 2).await;
    for n in ["101", "102", "103", "104"] {
        app.room(n, &rt).await;
    }
    let guest = app.guest("Ana", "Horvat").await;
    let stays = [
        ("2026-12-01", "2026-12-04", 10_000, false),
        ("2026-12-03", "2026-12-10", 12_550, false),
        ("2026-12-05", "2026-12-06", 9_999, true),
        ("2026-12-28", "2027-01-03", 15_000, false),
        ("2026-11-29", "2026-12-02", 11_000, false),
    ];
    let mut sold: BTreeMap<NaiveDate, (i64, i64)> = BTreeMap::new();
    for (arrival, departure, rate, cancelled) in stays {
        let id = app
            .post(
                "/v1/reservations",
                json!({"primary_guest_id": guest, "room_type_id": rt, "arrival": arrival,
                       "departure": departure, "adults": 1, "nightly_rate": rate}),
            )
            .await
            .expect(201)
            .id();
        if cancelled {
            app.put(
                &format!("/v1/reservations/{id}"),
                json!({"status": "cancelled"}),
            )
            .await
            .expect(200);
            continue;
        }
        let mut night = d(arrival);
        while night < d(departure) {
            let e = sold.entry(night).or_default();
            e.0 += 1;
            e.1 += rate;
            night = night.succ_opt().unwrap();
        }
    }
    sold
}

fn round(a: i64, b: i64) -> i64 {
    (2 * a + b) / (2 * b)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_months_occupancy_adds_up_night_by_night_and_as_a_month() {
    let app = spawn_app().await;
    let sold = month_of_stays(&app).await;
    let r = app
        .get("/v1/reports/occupancy?from=2026-12-01&to=2027-01-01")
        .await
        .expect(200)
        .body;
    let rows = r["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 31);
    let (mut total_sold, mut total_revenue) = (0, 0);
    for row in rows {
        let night = d(row["period"].as_str().unwrap());
        let (n, revenue) = sold.get(&night).copied().unwrap_or((0, 0));
        assert_eq!(row["rooms_available"], 4, "{row}");
        assert_eq!(
            (row["rooms_sold"].as_i64(), row["room_revenue"].as_i64()),
            (Some(n), Some(revenue)),
            "{night}"
        );
        if n > 0 {
            assert_eq!(row["adr"].as_i64(), Some(round(revenue, n)), "{night}");
        } else {
            assert!(row["adr"].is_null());
        }
        assert_eq!(row["revpar"].as_i64(), Some(round(revenue, 4)));
        assert_eq!(
            row["occupancy_percent"].as_f64(),
            Some((n * 1000 / 4) as f64 / 10.0)
        );
        total_sold += n;
        total_revenue += revenue;
    }
    assert_eq!(r["total"]["rooms_sold"], total_sold);
    assert_eq!(r["total"]["room_revenue"], total_revenue);
    assert_eq!(r["total"]["rooms_available"], 124);

    // By month: December whole, and January's first nights of the stay across the new year.
    let m = app
        .get("/v1/reports/occupancy?from=2026-12-01&to=2027-02-01&by=month")
        .await
        .expect(200)
        .body;
    let months: Vec<&Value> = m["rows"].as_array().unwrap().iter().collect();
    assert_eq!(months.len(), 2);
    assert_eq!(months[0]["period"], "2026-12");
    assert_eq!(months[0]["rooms_sold"], total_sold);
    assert_eq!(months[0]["room_revenue"], total_revenue);
    assert_eq!(months[1]["period"], "2027-01");
    assert_eq!(months[1]["rooms_sold"], 2);
    assert_eq!(months[1]["room_revenue"], 30_000);

    // The CSV says the same, in major units.
    let csv = app
        .client
        .get(app.url("/v1/reports/occupancy?from=2026-12-01&to=2027-02-01&by=month"))
        .bearer_auth(&app.token)
        .header("Accept", "text/csv")
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), 200);
    assert!(
        csv.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = csv.text().await.unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "period,rooms_available,rooms_sold,occupancy_percent,room_revenue,adr,revpar,currency"
    );
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(
        lines[2].starts_with("2027-01,124,2,1.6,300.00,150.00,2.42,"),
        "{}",
        lines[2]
    );

    // A range the wrong way round, or over a year, is refused by name.
    for q in [
        "from=2026-12-10&to=2026-12-01",
        "from=2026-01-01&to=2027-02-01",
    ] {
        let bad = app.get(&format!("/v1/reports/occupancy?{q}")).await;
        assert_eq!(bad.status, 422, "{q}");
        assert_eq!(bad.body["errors"][0]["field"], "to");
        assert_eq!(bad.body["errors"][0]["code"], "invalid_range");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_desk_report_draws_its_chart_and_gives_its_csv() {
    let app = spawn_app().await;
    month_of_stays(&app).await;
    let password = staff(&app, "olga", "manager").await;
    let b = Browser::sign_in(&app, "olga", &password).await;
    let page = b.get("/reports?month=2026-12").await;
    assert_eq!(page.status, 200);
    for wanted in [
        "<svg class=\"chart\"",
        "role=\"img\"",
        "Occupancy night by night, December 2026",
        "Average rate (ADR)",
        "href=\"/reports/occupancy.csv?month=2026-12\"",
        // No stay of the month was billed yet: one sentence instead of tables of nothing.
        "No invoice or credit note was issued this month.",
        "<ul class=\"report-links\">",
    ] {
        assert!(
            page.text.contains(wanted),
            "{wanted} missing: {}",
            page.text
        );
    }
    assert!(
        page.text.contains("href=\"/reports/istat?month=2026-12\""),
        "Italy's ISTAT report is offered while the country is not set"
    );
    assert_eq!(page.text.matches("<rect").count(), 31, "a bar per night");
    let head = page.text.split("</title>").next().unwrap();
    assert!(
        head.ends_with("<title>Occupancy, December 2026 · innkeep"),
        "the title alone: {head}"
    );
    // Italy's statistics are offered to an Italian hotel, not to a Croatian one.
    for (country, offered) in [("HR", false), ("IT", true)] {
        app.put("/v1/settings", json!({ "country": country }))
            .await
            .expect(200);
        let text = b.get("/reports?month=2026-12").await.text;
        assert!(
            text.contains("href=\"/reports/city-tax\""),
            "{country}: {text}"
        );
        assert_eq!(
            text.contains("/reports/istat"),
            offered,
            "{country}: {text}"
        );
        assert_eq!(
            text.contains("href=\"/reports/istat?month=2026-12\""),
            offered,
            "{country}: {text}"
        );
    }
    let csv = b.get("/reports/occupancy.csv?month=2026-12").await;
    assert_eq!(csv.status, 200);
    assert_eq!(csv.text.lines().count(), 33, "header, 31 nights, total");
    // Front-desk staff do not see the owner's numbers.
    let desk_pw = staff(&app, "marta", "front_desk").await;
    let desk = Browser::sign_in(&app, "marta", &desk_pw).await;
    assert_eq!(desk.get("/reports").await.status, 403);

    let Some(c) = crate::support::browser::chrome_speaking(1280, 1800, "it").await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "olga", &password).await;
    c.client
        .goto(&format!("{base}/reports?month=2026-12"))
        .await
        .unwrap();
    c.wait_for(fantoccini::Locator::Css("svg.chart")).await;
    c.axe("Reports").await;
    c.screenshot("desk-report-occupancy-it").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn bookings_are_counted_by_source_with_their_cancellations_and_lead_time() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 2).await;
    app.room("101", &rt).await;
    app.room("102", &rt).await;
    let guest = app.guest("Ana", "Horvat").await;
    let today = crate::support::day(0);
    let book = |source: &'static str, arrival: i64, nights: u64, rate: i64| {
        let (app, rt, guest) = (&app, rt.clone(), guest.clone());
        async move {
            let arrival = crate::support::day(arrival);
            let departure = (d(&arrival) + chrono::Days::new(nights)).to_string();
            app.post(
                "/v1/reservations",
                json!({"primary_guest_id": guest, "room_type_id": rt, "arrival": arrival,
                       "departure": departure, "adults": 1, "nightly_rate": rate,
                       "source": source}),
            )
            .await
            .expect(201)
            .id()
        }
    };
    book("direct", 10, 2, 10_000).await;
    let gone = book("direct", 20, 3, 9_000).await;
    book("phone", 5, 1, 12_000).await;
    app.put(
        &format!("/v1/reservations/{gone}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    let next = (d(&today) + chrono::Days::new(1)).to_string();
    let r = app
        .get(&format!("/v1/reports/bookings?from={today}&to={next}"))
        .await
        .expect(200)
        .body;
    let rows = r["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{r}");
    let direct = rows.iter().find(|x| x["source"] == "direct").unwrap();
    assert_eq!(
        (
            direct["bookings"].as_i64(),
            direct["cancelled"].as_i64(),
            direct["nights"].as_i64()
        ),
        (Some(2), Some(1), Some(5))
    );
    assert_eq!(direct["room_revenue"], 47_000);
    assert_eq!(direct["lead_time_days"], 15.0);
    let phone = rows.iter().find(|x| x["source"] == "phone").unwrap();
    assert_eq!(
        (phone["bookings"].as_i64(), phone["lead_time_days"].as_f64()),
        (Some(1), Some(5.0))
    );
    assert!(phone["channel"].is_null());
    // The day before holds none of them.
    let before = (d(&today) - chrono::Days::new(1)).to_string();
    let none = app
        .get(&format!("/v1/reports/bookings?from={before}&to={today}"))
        .await
        .expect(200)
        .body;
    assert!(none["rows"].as_array().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_guest_list_names_everyone_in_the_house_with_their_documents() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 3).await;
    let room = app.room("101", &rt).await;
    app.room("102", &rt).await;
    let ana = app
        .post(
            "/v1/guests",
            json!({"first_name": "Ana", "last_name": "Horvat", "nationality": "HR",
                   "birth_date": "1980-04-02",
                   "document": {"type": "passport", "number": "P1234567", "issuing_country": "HR"}}),
        )
        .await
        .expect(201)
        .id();
    let ivo = app.guest("Ivo", "Horvat").await;
    let today = crate::support::day(0);
    let res = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": ana, "guest_ids": [ana, ivo], "room_type_id": rt,
                   "room_id": room, "arrival": today, "departure": crate::support::day(2),
                   "adults": 2}),
        )
        .await
        .expect(201)
        .id();
    // Booked but not arrived: not in the house.
    let other = app.guest("Not", "Arrived").await;
    app.reserve(&other, &rt, &today, &crate::support::day(1))
        .await
        .expect(201);
    app.post("/v1/check-in", json!({"reservation_id": res}))
        .await
        .expect(200);

    let list = app
        .get(&format!("/v1/reports/guests?date={today}"))
        .await
        .expect(200)
        .body;
    let rows = list["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{list}");
    assert_eq!(rows[0]["guest"]["last_name"], "Horvat");
    assert_eq!(rows[0]["primary"], true);
    assert_eq!(rows[0]["room"], "101");
    assert_eq!(rows[0]["guest"]["document"]["number"], "P1234567");
    assert_eq!(rows[1]["guest"]["first_name"], "Ivo");
    assert_eq!(rows[1]["primary"], false);
    let before = (d(&today) - chrono::Days::new(1)).to_string();
    let empty = app
        .get(&format!("/v1/reports/guests?date={before}"))
        .await
        .expect(200)
        .body;
    assert!(empty["rows"].as_array().unwrap().is_empty());

    // The desk's printable list.
    let password = staff(&app, "olga", "manager").await;
    let b = Browser::sign_in(&app, "olga", &password).await;
    let page = b.get(&format!("/reports/guests?date={today}")).await;
    assert_eq!(page.status, 200);
    for wanted in [
        "Ana Horvat",
        "Ivo Horvat",
        "Passport P1234567 (HR)",
        "02/04/1980",
    ] {
        assert!(
            page.text.contains(wanted),
            "{wanted} missing: {}",
            page.text
        );
    }
    assert!(!page.text.contains("Not Arrived"));
    let Some(c) = crate::support::browser::chrome(1280, 900).await else {
        return;
    };
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "olga", &password).await;
    c.client
        .goto(&format!("{base}/reports/guests?date={today}"))
        .await
        .unwrap();
    c.wait_for(fantoccini::Locator::Css("table")).await;
    c.axe("Guests in the house").await;
    c.screenshot("desk-guest-list").await;
}
