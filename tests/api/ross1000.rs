//! The month's Ross1000 file against the Alloggiati code tables: a family from Milan (head
//! 17, member 19 naming the head), a German guest (16, residence abroad, her departure on
//! its day), a child without an address left out and named, the days' rooms; without the
//! structure's code the file is refused by name.

use serde_json::{Value, json};

use crate::support::alloggiati_sim::Sim;
use crate::support::desk::{Browser, staff};
use crate::support::registration::{DAY, day, hotel_configured, italian};
use crate::support::{TestApp, spawn_app};

async fn guest(app: &TestApp, body: Value) -> String {
    app.post("/v1/guests", body).await.expect(201).id()
}

fn milan() -> Value {
    json!({"country": "IT", "city": "Milano", "region": "MI", "line1": "Via Dante 1"})
}

async fn stay(app: &TestApp, guests: &[String], nights: u64, room: &str) -> (String, String) {
    let rt = app.room_type(&format!("T{room}"), 4).await;
    let room = app.room(room, &rt).await;
    let departure = day() + chrono::Days::new(nights);
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guests[0], "guest_ids": guests[1..],
               "room_type_id": rt, "room_id": room, "arrival": DAY,
               "departure": departure.to_string(), "adults": guests.len()}),
        )
        .await
        .expect(201);
    let (id, code) = (r.id(), r.body["code"].as_str().unwrap().to_string());
    app.post("/v1/check-in", json!({"reservation_id": id}))
        .await
        .expect(200);
    (id, code)
}

fn text<'a>(n: roxmltree::Node<'a, 'a>, name: &str) -> &'a str {
    n.children()
        .find(|c| c.has_tag_name(name))
        .and_then(|c| c.text())
        .unwrap_or("")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ross1000_file_carries_each_guest_with_the_polices_codes() {
    let sim = Sim::start(day()).await;
    let app = hotel_configured(&sim, |c| c.compliance.istat.structure = "VE0123".into()).await;
    let mut mario = italian("Mario", "Rossi", "male", "1980-05-15", "Roma", "RM");
    mario["document"] =
        json!({"type": "id_card", "number": "CA 12345-AB", "issuing_place": "Roma"});
    mario["address"] = milan();
    let mut giulia = italian("Giulia", "Rossi", "female", "1982-03-02", "Milano", "MI");
    giulia["address"] = milan();
    let niccolo = italian("Niccolò", "Rossi", "male", "2015-07-30", "Firenze", "");
    let family = vec![
        guest(&app, mario).await,
        guest(&app, giulia).await,
        guest(&app, niccolo).await,
    ];
    let zoe = guest(&app, json!({"first_name": "Zoë", "last_name": "Müller", "gender": "female",
        "birth_date": "1990-01-31", "nationality": "DE", "birth_place": {"country": "DE", "municipality": "München"},
        "document": {"type": "passport", "number": "C01X00T47", "issuing_country": "DE"},
        "address": {"country": "DE", "city": "München", "line1": "Marienplatz 1"}})).await;
    let (_, family_code) = stay(&app, &family, 2, "101").await;
    let (zoe_stay, zoe_code) = stay(&app, std::slice::from_ref(&zoe), 1, "102").await;
    app.clock().set_now("2026-11-23T09:00:00Z".parse().unwrap());
    app.post(
        "/v1/check-out",
        json!({"reservation_id": zoe_stay, "payments": [{"method": "card"}]}),
    )
    .await
    .expect(200);

    let r = app
        .client
        .get(app.url("/v1/reports/istat/ross1000.xml?month=2026-11"))
        .bearer_auth(&app.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["x-guests-left-out"],
        "1",
        "the child has no address"
    );
    let xml = r.text().await.unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let root = doc.root_element();
    assert_eq!(text(root, "codice"), "VE0123");
    let days: Vec<_> = root
        .children()
        .filter(|c| c.has_tag_name("movimento"))
        .collect();
    assert_eq!(days.len(), 30);
    let day22 = days
        .iter()
        .find(|d| text(**d, "data") == "20261122")
        .unwrap();
    let structure = day22
        .children()
        .find(|c| c.has_tag_name("struttura"))
        .unwrap();
    assert_eq!(text(structure, "camereoccupate"), "2");
    let mut arrivals: Vec<_> = day22
        .descendants()
        .filter(|c| c.has_tag_name("arrivo"))
        .collect();
    let zoe_id = format!("{zoe_code}-1");
    arrivals.sort_by_key(|a| (text(*a, "idswh") == zoe_id, text(*a, "idswh").to_string()));
    let fields = |a: roxmltree::Node| {
        [
            "idswh",
            "tipoalloggiato",
            "idcapo",
            "sesso",
            "cittadinanza",
            "statoresidenza",
            "luogoresidenza",
            "datanascita",
        ]
        .map(|n| text(a, n).to_string())
    };
    let head = format!("{family_code}-1");
    assert_eq!(
        fields(arrivals[0]),
        [
            &head,
            "17",
            "",
            "M",
            "100000100",
            "100000100",
            "403015146",
            "19800515"
        ]
    );
    assert_eq!(
        fields(arrivals[1]),
        [
            &format!("{family_code}-2"),
            "19",
            &head,
            "F",
            "100000100",
            "100000100",
            "403015146",
            "19820302"
        ]
    );
    assert_eq!(
        fields(arrivals[2]),
        [
            &format!("{zoe_code}-1"),
            "16",
            "",
            "F",
            "100000216",
            "100000216",
            "",
            "19900131"
        ]
    );
    assert_eq!(arrivals.len(), 3, "the child is left out: {xml}");
    let day23 = days
        .iter()
        .find(|d| text(**d, "data") == "20261123")
        .unwrap();
    let departure = day23
        .descendants()
        .find(|c| c.has_tag_name("partenza"))
        .unwrap();
    assert_eq!(
        (text(departure, "idswh"), text(departure, "arrivo")),
        (format!("{zoe_code}-1").as_str(), "20261122")
    );

    // The desk's ISTAT page names the child and what to fix.
    let password = staff(&app, "olga", "manager").await;
    let b = Browser::sign_in(&app, "olga", &password).await;
    let page = b.get("/reports/istat?month=2026-11").await;
    assert!(page.text.contains("Niccolò Rossi"), "{}", page.text);
    assert!(page.text.contains("address.country"));
    assert!(
        page.text
            .contains("href=\"/reports/istat/ross1000.xml?month=2026-11\"")
    );

    let plain = spawn_app().await;
    let refused = plain
        .get("/v1/reports/istat/ross1000.xml?month=2026-11")
        .await
        .expect(409);
    assert_eq!(refused.body["code"], "not_configured");
}
