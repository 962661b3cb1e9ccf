//! A family room type with two rate plans, shared by the tests of prices and their fees.

use serde_json::json;

use super::TestApp;

/// A room type of `rooms` rooms sleeping 4 and its two plans: `FLEX` (own prices, 100.00 a
/// night for 2, extra adult 30.00, children up to 11 at 15.00, deposit 30 %) and `NR`
/// (10 % less, non-refundable): (room type, FLEX, NR).
pub async fn plans(app: &TestApp, rooms: usize) -> (String, String, String) {
    let rt = app.room_type("FAM", 4).await;
    for n in 0..rooms {
        app.room(&format!("{}", 201 + n), &rt).await;
    }
    let flex = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "FLEX",
                   "name": {"en": "Flexible", "it": "Flessibile", "hr": "Fleksibilno"},
                   "default_price": 10000,
                   "occupancy": {"base_adults": 2, "extra_adult": 3000,
                                 "children": [{"max_age": 2, "price": 0}, {"max_age": 11, "price": 1500}]},
                   "cancellation": {"free_until_days": 3, "fee": "first_night"},
                   "deposit": {"kind": "percent", "percent": 3000, "days_before": 14}}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(flex["sold"], true);
    assert_eq!(
        flex["no_show"]["fee"], "first_night",
        "the default no-show fee"
    );
    let flex = flex["id"].as_str().unwrap().to_string();
    let nr = app
        .post(
            "/v1/rate-plans",
            json!({"room_type_id": rt, "code": "NR", "name": {"en": "Non-refundable"},
                   "parent_id": flex, "derivation": {"kind": "percent", "value": -1000},
                   "occupancy": {"base_adults": 2, "extra_adult": 3000},
                   "cancellation": {"fee": "all"}}),
        )
        .await
        .expect(201)
        .id();
    (rt, flex, nr)
}
