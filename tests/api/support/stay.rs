//! A small hotel to run stays in, and reading money out of answers.

use serde_json::{Value, json};

use super::TestApp;

pub struct Hotel {
    pub room_type: String,
    pub rooms: Vec<String>,
    pub guest: String,
    pub child: String,
}

/// A property with a 13 % default rate, a city tax of 2.50 (max 5 nights, under 14 exempt),
/// a room type at 120.00, `rooms` rooms, an adult and an 8-year-old.
pub async fn hotel(app: &TestApp, rooms: usize) -> Hotel {
    app.put(
        "/v1/settings",
        json!({"default_tax_rate": 1300, "city_tax": {"amount_per_person_night": 250, "max_nights": 5, "exempt_under_age": 14}}),
    )
    .await
    .expect(200);
    let room_type = app
        .post(
            "/v1/room-types",
            json!({"code": "DBL", "name": "Double", "max_occupancy": 3, "base_rate": 12000}),
        )
        .await
        .expect(201)
        .id();
    let mut ids = Vec::new();
    for n in 0..rooms {
        ids.push(app.room(&format!("{}", 100 + n), &room_type).await);
    }
    let guest = app.guest("Anna", "Rossi").await;
    let child = app
        .post(
            "/v1/guests",
            json!({"first_name": "Bea", "last_name": "Rossi", "birth_date": "2018-05-01"}),
        )
        .await
        .expect(201)
        .id();
    Hotel {
        room_type,
        rooms: ids,
        guest,
        child,
    }
}

pub fn amounts(v: &Value) -> (i64, i64, i64) {
    (
        v["net"].as_i64().unwrap(),
        v["tax"].as_i64().unwrap(),
        v["gross"].as_i64().unwrap(),
    )
}
