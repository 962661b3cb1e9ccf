//! The simulated hotel, in Croatia or Italy (its national systems are set up in
//! `authorities`): its name, room types and rooms, and a city tax. Also the guests' records,
//! with what both countries' registration offices ask.

use chrono::{Datelike, Days, NaiveDate};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use crate::country::Country;
use crate::plan::{
    HIGH_SEASON_MIN_STAY, RATE_PLANS, ROOM_TYPES, new_year_min_stay, price, weekend,
};
use crate::support::TestApp;
use crate::support::registration::italian;

/// A room: its id and the index of its type in [`ROOM_TYPES`].
#[derive(Debug, Clone)]
pub struct Room {
    pub id: String,
    pub room_type: usize,
}

/// What the run needs to know about the hotel it built.
pub struct Built {
    /// Room type ids, in [`ROOM_TYPES`] order.
    pub room_types: Vec<String>,
    /// Per room type, its plans' ids in [`RATE_PLANS`] order.
    pub rate_plans: Vec<Vec<String>>,
    pub rooms: Vec<Room>,
}

/// The city tax: 1.80 a person-night, at most 7 nights, children under 12 exempt.
pub const CITY_TAX: (i64, i64, i64) = (180, 7, 12);

/// Settings, room types and `rooms` rooms split by the types' shares.
pub async fn build(app: &TestApp, rooms: usize, country: Country) -> Built {
    let (amount, max_nights, exempt) = CITY_TAX;
    app.put(
        "/v1/settings",
        json!({"name": country.hotel_name(), "city_tax": {"amount_per_person_night": amount,
               "max_nights": max_nights, "exempt_under_age": exempt, "tax_rate": 0}}),
    )
    .await
    .expect(200);
    let mut room_types = Vec::new();
    let mut built = Vec::new();
    for (i, (code, name, max, rate, share)) in ROOM_TYPES.iter().enumerate() {
        let id = app
            .post(
                "/v1/room-types",
                json!({"code": code, "name": name, "max_occupancy": max, "base_rate": rate}),
            )
            .await
            .expect(201)
            .id();
        let count = if i + 1 == ROOM_TYPES.len() {
            rooms - built.len()
        } else {
            ((rooms as f64 * share).round() as usize).max(1)
        };
        for _ in 0..count {
            let floor = built.len() / 20 + 1;
            let number = format!("{floor}{:02}", built.len() % 20 + 1);
            let room = app
                .post(
                    "/v1/rooms",
                    json!({"number": number, "room_type_id": id, "floor": floor}),
                )
                .await
                .expect(201)
                .id();
            built.push(Room {
                id: room,
                room_type: i,
            });
        }
        room_types.push(id);
    }
    let mut rate_plans = Vec::new();
    for (i, id) in room_types.iter().enumerate() {
        rate_plans.push(plans(app, id, ROOM_TYPES[i].3).await);
    }
    Built {
        room_types,
        rate_plans,
        rooms: built,
    }
}

/// The room type's plans: the flexible one with its own prices (free cancellation until the
/// day before), and the non-refundable one 10 % cheaper, its first night paid at booking as
/// a deposit.
async fn plans(app: &TestApp, room_type: &str, base_rate: i64) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for (code, name, derived) in RATE_PLANS {
        let mut body = json!({"room_type_id": room_type, "code": code, "name": {"en": name}});
        match derived {
            None => body["default_price"] = json!(base_rate),
            Some(percent) => {
                body["parent_id"] = json!(ids[0]);
                body["derivation"] = json!({"kind": "percent", "value": percent});
                body["cancellation"] = json!({"fee": "all"});
                body["deposit"] = json!({"kind": "first_night"});
            }
        }
        ids.push(app.post("/v1/rate-plans", body).await.expect(201).id());
    }
    ids
}

/// Sets every plan's calendar from `first` to `last`: the flexible plan's price by season
/// and weekday ([`price`]), and on every plan the high season's and New Year's minimum
/// stays.
pub async fn price_calendar(app: &TestApp, built: &Built, first: NaiveDate, last: NaiveDate) {
    let mut start = first;
    while start <= last {
        let next_month = NaiveDate::from_ymd_opt(
            start.year() + i32::from(start.month() == 12),
            start.month() % 12 + 1,
            1,
        )
        .unwrap();
        let end = (next_month - Days::new(1)).min(last);
        let mut days = start.iter_days().take_while(|d| *d <= end);
        let weekday = days.clone().find(|d| !weekend(*d)).unwrap_or(start);
        let saturday = days.find(|d| weekend(*d)).unwrap_or(start);
        let (high_months, high_min) = HIGH_SEASON_MIN_STAY;
        for (rt, plans) in built.rate_plans.iter().enumerate() {
            for mut body in [
                json!({"price": price(rt, weekday)}),
                json!({"price": price(rt, saturday), "weekdays": ["fri", "sat"]}),
            ] {
                body["rate_plan_id"] = json!(plans[0]);
                body["from"] = json!(start.to_string());
                body["to"] = json!(end.to_string());
                app.put("/v1/rates", body).await.expect(200);
            }
            for plan in plans {
                let mut restrictions = Vec::new();
                if high_months.contains(&start.month()) {
                    restrictions.push((start, end, high_min));
                }
                if start.month() == 12 {
                    let eve = NaiveDate::from_ymd_opt(start.year(), 12, 30).unwrap();
                    if let Some(min) = new_year_min_stay(eve) {
                        restrictions.push((eve.max(start), end, min));
                    }
                }
                for (from, to, min) in restrictions.into_iter().filter(|r| r.0 <= r.1) {
                    app.put(
                        "/v1/rates",
                        json!({"rate_plan_id": plan, "from": from.to_string(),
                               "to": to.to_string(), "min_stay_arrival": min}),
                    )
                    .await
                    .expect(200);
                }
            }
        }
        start = next_month;
    }
}

const FIRST_F: [&str; 8] = [
    "Giulia", "Anna", "Sofia", "Marta", "Lena", "Emma", "Chiara", "Ivana",
];
const FIRST_M: [&str; 8] = [
    "Marco", "Luca", "Paolo", "Jonas", "Felix", "Oliver", "Matteo", "Tomás",
];
const LAST: [&str; 12] = [
    "Rossi",
    "Bianchi",
    "Ferrari",
    "Esposito",
    "Müller",
    "Schmidt",
    "Wagner",
    "Smith",
    "O'Brien",
    "D’Angelo",
    "Colombo",
    "Ricci",
];
/// Birth towns the Alloggiati sample tables know, with their provinces.
const TOWNS: [(&str, &str); 4] = [
    ("Roma", "RM"),
    ("Milano", "MI"),
    ("Firenze", ""),
    ("Lecco", ""),
];

/// A guest's record: Italian, German or British, with everything eVisitor asks (an identity
/// document for everyone, the home town, for a child the children's tourist-tax category,
/// for a British resident the border crossing and day of entry); a child has `born`.
pub fn guest(rng: &mut StdRng, n: usize, first: bool, born: Option<NaiveDate>) -> Value {
    let male = rng.gen_bool(0.5);
    let names: &[&str] = if male { &FIRST_M } else { &FIRST_F };
    let given = names[rng.gen_range(0..names.len())];
    let family = LAST[rng.gen_range(0..LAST.len())];
    let born = born.unwrap_or_else(|| {
        NaiveDate::from_ymd_opt(rng.gen_range(1945..2004), rng.gen_range(1..13), 1).unwrap()
            + chrono::Days::new(rng.gen_range(0..28))
    });
    let gender = if male { "male" } else { "female" };
    let mut g = match rng.gen_range(0..10) {
        0..6 => {
            let (town, province) = TOWNS[rng.gen_range(0..TOWNS.len())];
            let mut g = italian(given, family, gender, &born.to_string(), town, province);
            g["document"] = json!({"type": "id_card", "number": format!("CA{n:06}AB"),
                                   "issuing_place": town, "issuing_country": "IT"});
            g["address"] = json!({"city": town, "country": "IT"});
            g
        }
        country => {
            let (code, town) = if country < 8 {
                ("DE", "München")
            } else {
                ("GB", "London")
            };
            let mut g = json!({"first_name": given, "last_name": family, "gender": gender,
                "birth_date": born.to_string(), "nationality": code,
                "birth_place": {"country": code, "municipality": town},
                "address": {"city": town, "country": code},
                "document": {"type": "passport", "number": format!("P{n:08}"), "issuing_country": code}});
            if code == "GB" {
                g["tourist"] = json!({"border_crossing": "053", "entry_date": "2026-12-01"});
            }
            g
        }
    };
    if !first {
        // The children's category: eVisitor's 1 (under 12) or 2 (12 to 18); adults take the
        // hotel's default (14).
        let age = 2027 - born.year();
        if age < 18 {
            g["tourist"]["tax_category"] = json!(if age < 12 { "1" } else { "2" });
        }
    }
    if first && born.year() % 3 == 0 {
        g["email"] = json!(format!("guest{n}@example.com"));
        // Written to in Italian or English; the others in the hotel's language.
        if born.year() % 2 == 0 {
            let italian = g["nationality"] == "IT" || g["tax_code"].is_string();
            g["language"] = json!(if italian { "it" } else { "en" });
        }
    }
    g
}
