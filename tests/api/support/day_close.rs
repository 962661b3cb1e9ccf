//! A day to close, for the day close's tests: a hotel with a guest who left paying cash,
//! one staying on, one arrival who never comes and one expected after midnight.

use serde_json::json;

use super::stay::{Hotel, hotel};
use super::{TestApp, day};

pub async fn booking(
    app: &TestApp,
    guest: &str,
    rt: &str,
    room: Option<&str>,
    from: i64,
    to: i64,
) -> String {
    let mut body = json!({"primary_guest_id": guest, "room_type_id": rt,
                          "arrival": day(from), "departure": day(to), "adults": 1});
    if let Some(room) = room {
        body["room_id"] = json!(room);
    }
    app.post("/v1/reservations", body).await.expect(201).id()
}

/// A day to close (today by the property's clock; the test moves on to close it): the hotel,
/// a guest who left paying cash, one in room 100 staying on, one arrival who never comes and
/// one expected after midnight.
pub struct DayToClose {
    pub hotel: Hotel,
    pub staying: String,
    pub missing: String,
    pub late: String,
    /// The cash taken: the invoice's gross.
    pub cash: i64,
}

pub async fn a_day_to_close(app: &TestApp) -> DayToClose {
    let h = hotel(app, 3).await;
    // Yesterday: a guest arrives for one night; today they leave paying cash.
    app.set_today(-1);
    let left = booking(app, &h.guest, &h.room_type, Some(&h.rooms[1]), -1, 0).await;
    app.post("/v1/check-in", json!({"reservation_id": left}))
        .await
        .expect(200);
    app.set_today(0);
    let invoice = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": left, "payments": [{"method": "cash"}]}),
        )
        .await
        .expect(200)
        .body["invoice"]
        .clone();
    let cash = invoice["totals"]["gross"].as_i64().unwrap();
    // Today: one arrives and stays, one never comes, one is expected after midnight.
    let staying = booking(app, &h.guest, &h.room_type, Some(&h.rooms[0]), 0, 2).await;
    app.post("/v1/check-in", json!({"reservation_id": staying}))
        .await
        .expect(200);
    let missing = booking(app, &h.guest, &h.room_type, None, 0, 1).await;
    let late = booking(app, &h.guest, &h.room_type, None, 0, 1).await;
    DayToClose {
        hotel: h,
        staying,
        missing,
        late,
        cash,
    }
}
