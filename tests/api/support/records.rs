//! [`TestApp`]'s helpers that make records through the API (a room type, a room, a
//! guest, a reservation) and read whole lists and the event feed, following cursors.

use serde_json::{Value, json};

use super::{Reply, TestApp};

impl TestApp {
    pub async fn room_type(&self, code: &str, max_occupancy: i64) -> String {
        self.post(
            "/v1/room-types",
            json!({"code": code, "name": format!("Room type {code}"), "max_occupancy": max_occupancy, "base_rate": 10000}),
        )
        .await
        .expect(201)
        .id()
    }

    pub async fn room(&self, number: &str, room_type_id: &str) -> String {
        self.post(
            "/v1/rooms",
            json!({"number": number, "room_type_id": room_type_id}),
        )
        .await
        .expect(201)
        .id()
    }

    pub async fn guest(&self, first: &str, last: &str) -> String {
        self.post(
            "/v1/guests",
            json!({"first_name": first, "last_name": last}),
        )
        .await
        .expect(201)
        .id()
    }

    pub async fn reserve(
        &self,
        guest: &str,
        room_type: &str,
        arrival: &str,
        departure: &str,
    ) -> Reply {
        self.post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": room_type, "arrival": arrival,
                   "departure": departure, "adults": 1}),
        )
        .await
    }

    /// Every event of the feed.
    pub async fn all_events(&self) -> Vec<Value> {
        let mut out = Vec::new();
        let mut after = 0;
        loop {
            let r = self
                .get(&format!("/v1/events?after={after}&limit=200"))
                .await
                .expect(200);
            out.extend(r.body["data"].as_array().unwrap().iter().cloned());
            after = r.body["next_after"].as_i64().unwrap();
            if r.body["has_more"] != true {
                return out;
            }
        }
    }

    /// Every record of a list, following cursors.
    pub async fn all(&self, path: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let sep = if path.contains('?') { '&' } else { '?' };
        let mut url = format!("{path}{sep}limit=200");
        loop {
            let r = self.get(&url).await.expect(200);
            out.extend(r.body["data"].as_array().unwrap().iter().cloned());
            match r.body["next_cursor"].as_str() {
                Some(c) => url = format!("{path}{sep}limit=200&cursor={c}"),
                None => return out,
            }
        }
    }
}
