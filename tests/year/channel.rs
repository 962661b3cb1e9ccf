//! The booking sites, through the channel manager (the Channex simulator): the year's
//! bookings from booking sites (half of them) arrive as booking revisions, are pulled by
//! innkeep's pusher and completed at the desk (the party's registration data, as a guest
//! gives it on arrival); their cancellations come the same way. Every simulated day ends
//! with a round (bookings in, changes out) and the read-back: the channel manager must hold
//! innkeep's availability, prices and restrictions on every night of the horizon.
//!
//! The pusher is driven here rather than on its own timer (the run's days pass faster than
//! the real pusher's spacing and its idle look every 30 s): one round right after each
//! booking or cancellation from a site, as if the pusher looked at once, and rounds until
//! nothing is owed at the day's end. The desk completes the day's bookings from the sites
//! together, a few at a time.

use std::collections::BTreeMap;

use chrono::{Days, NaiveDate};
use serde_json::{Value, json};

use innkeep::config::channel::ChannelConfig;
use innkeep::config::compliance::Secret;
use innkeep::jobs::channel::Pusher;

use crate::api::Api;
use crate::plan::{Booking, RATE_PLANS, ROOM_TYPES, plan_price};
use crate::support::TestApp;
use crate::support::channex_sim::{KEY, PROPERTY, Sim};

/// The channel manager and innkeep's side of it.
pub struct Channel {
    pub sim: Sim,
    pusher: Pusher,
    /// Revisions sent so far (each booking's code is its number).
    sent: usize,
    /// Reservation → (its booking id, code), for a cancellation.
    bookings: BTreeMap<String, (String, String)>,
    /// Days on which the read-back found a difference, with the first of them.
    pub differences: Vec<(NaiveDate, String)>,
    pub parity_checks: u64,
}

fn remote_type(t: usize) -> String {
    format!("ch-{}", ROOM_TYPES[t].0.to_lowercase())
}

fn remote_plan(t: usize, p: usize) -> String {
    format!(
        "ch-{}-{}",
        ROOM_TYPES[t].0.to_lowercase(),
        RATE_PLANS[p].0.to_lowercase()
    )
}

impl Channel {
    /// A channel manager with the hotel's room types and plans, mapped by code, over a
    /// horizon that covers the run's furthest booking.
    pub async fn start(app: &TestApp, horizon_days: u32) -> Channel {
        let types: Vec<String> = (0..ROOM_TYPES.len()).map(remote_type).collect();
        let plans: Vec<String> = (0..ROOM_TYPES.len())
            .flat_map(|t| (0..RATE_PLANS.len()).map(move |p| remote_plan(t, p)))
            .collect();
        let sim = Sim::start(
            &types.iter().map(String::as_str).collect::<Vec<_>>(),
            &plans.iter().map(String::as_str).collect::<Vec<_>>(),
        )
        .await;
        sim.unlimited();
        let mut room_types = BTreeMap::new();
        let mut rate_plans = BTreeMap::new();
        for (t, rt) in ROOM_TYPES.iter().enumerate() {
            room_types.insert(rt.0.to_string(), remote_type(t));
            for (p, plan) in RATE_PLANS.iter().enumerate() {
                rate_plans.insert(format!("{}/{}", rt.0, plan.0), remote_plan(t, p));
            }
        }
        let cfg = ChannelConfig {
            provider: "channex".into(),
            url: sim.url(),
            api_key: Secret::new(KEY),
            property_id: PROPERTY.into(),
            horizon_days,
            room_types,
            rate_plans,
        };
        let svc = innkeep::service::Services::new(app.db().clone(), Default::default());
        Channel {
            sim,
            pusher: Pusher::new(svc, cfg),
            sent: 0,
            bookings: BTreeMap::new(),
            differences: Vec::new(),
            parity_checks: 0,
        }
    }

    /// A round: bookings in, changes out (as many as the pusher owes).
    async fn round(&self, api: &Api<'_>) {
        for _ in 0..10 {
            match self.pusher.round().await {
                Ok(w) if w == std::time::Duration::from_secs(30) => return,
                Ok(_) => {}
                Err(e) => {
                    api.unexpected(format!("a channel round failed: {e}"));
                    return;
                }
            }
        }
    }

    /// A booking site sells `b` (its party's first guest `first`) as the channel manager
    /// offers it: refused with innkeep's own reason when the plan cannot be booked (as the
    /// site would not sell it), else sent and pulled in a round of innkeep's pusher run
    /// at once (the ARI it owes goes in the same round). The channel manager's booking id
    /// and the booking site's code, or the refusal's code.
    pub async fn book(
        &mut self,
        api: &Api<'_>,
        hotel: &crate::hotel::Built,
        b: &Booking,
        first: &Value,
    ) -> Option<Result<(String, String), String>> {
        let departure = b.arrival + Days::new(b.nights);
        let offers = api
            .get(&format!(
                "/v1/offers?arrival={}&departure={departure}&adults={}&children={}",
                b.arrival,
                b.adults,
                b.children.len()
            ))
            .await?;
        let plan_id = &hotel.rate_plans[b.room_type][b.rate_plan];
        let offer = offers["data"]
            .as_array()?
            .iter()
            .find(|o| o["rate_plan_id"] == plan_id.as_str())?
            .clone();
        if offer["bookable"] != true {
            let code = offer["reasons"][0]["code"]
                .as_str()
                .unwrap_or("no_availability");
            return Some(Err(code.to_string()));
        }
        self.sent += 1;
        let code = format!("{}", 4_000_000_000u64 + self.sent as u64);
        let booking = format!("bk-{}", self.sent);
        let days: serde_json::Map<String, Value> = (0..b.nights)
            .map(|i| {
                let night = b.arrival + Days::new(i);
                let price = plan_price(b.room_type, b.rate_plan, night);
                (
                    night.to_string(),
                    json!(format!("{}.{:02}", price / 100, price % 100)),
                )
            })
            .collect();
        self.sim.book(json!({
            "booking_id": booking, "status": "new", "ota_name": "Booking.com",
            "ota_reservation_code": code, "property_id": PROPERTY,
            "arrival_date": b.arrival, "departure_date": departure, "currency": "EUR",
            "payment_collect": "hotel",
            "customer": {"name": first["first_name"], "surname": first["last_name"]},
            "rooms": [{"room_type_id": remote_type(b.room_type),
                       "rate_plan_id": remote_plan(b.room_type, b.rate_plan),
                       "occupancy": {"adults": b.adults, "children": b.children.len()},
                       "days": days}]}));
        if let Err(e) = self.pusher.round().await {
            api.unexpected(format!("a channel round failed: {e}"));
        }
        Some(Ok((booking, code)))
    }

    /// The desk completes booking `code` of `b` with its party's records (`bodies`, the
    /// first for the guest the booking made), as the guests give them: the booking's guest
    /// completed, the others added. The reservation and its guests.
    pub async fn complete(
        api: &Api<'_>,
        b: &Booking,
        code: &str,
        bodies: Vec<Value>,
    ) -> Option<(String, Vec<String>)> {
        let found = api
            .all(&format!(
                "/v1/reservations?arrival_from={0}&arrival_to={0}&source=ota",
                b.arrival
            ))
            .await
            .into_iter()
            .find(|r| r["channel"]["ota_code"] == code);
        let Some(r) = found else {
            api.unexpected(format!(
                "booking {code} from the channel manager was not taken"
            ));
            return None;
        };
        let id = r["id"].as_str()?.to_string();
        let primary = r["primary_guest_id"].as_str()?.to_string();
        let mut bodies = bodies.into_iter();
        api.put(&format!("/v1/guests/{primary}"), bodies.next()?, &[200])
            .await?;
        let mut guests = vec![primary];
        for body in bodies {
            guests.push(api.post("/v1/guests", body, &[201]).await?.id());
        }
        api.put(
            &format!("/v1/reservations/{id}"),
            json!({"guest_ids": guests}),
            &[200],
        )
        .await?;
        Some((id, guests))
    }

    /// Files reservation `id` as the channel manager's `booking` (site code `code`), for
    /// its cancellation.
    pub fn taken(&mut self, id: &str, booking: String, code: String) {
        self.bookings.insert(id.to_string(), (booking, code));
    }

    /// The booking site cancels reservation `id`: a cancelled revision, pulled.
    pub async fn cancel(&mut self, api: &Api<'_>, id: &str, b: &Booking) -> bool {
        let Some((booking, code)) = self.bookings.get(id).cloned() else {
            return false;
        };
        let departure = b.arrival + Days::new(b.nights);
        self.sim.book(json!({
            "booking_id": booking, "status": "cancelled", "ota_name": "Booking.com",
            "ota_reservation_code": code, "property_id": PROPERTY,
            "arrival_date": b.arrival, "departure_date": departure, "currency": "EUR",
            "customer": {"name": "", "surname": ""}, "rooms": []}));
        if let Err(e) = self.pusher.round().await {
            api.unexpected(format!("a channel round failed: {e}"));
        }
        let r = api.get(&format!("/v1/reservations/{id}")).await;
        r.is_some_and(|r| r["status"] == "cancelled")
    }

    /// The day's end: a round, then the read-back over the horizon.
    pub async fn close_day(&mut self, api: &Api<'_>, d: NaiveDate) {
        self.sim.set_today(d);
        self.round(api).await;
        match self.pusher.check().await {
            Ok(found) if found.is_empty() => {}
            Ok(found) => self.differences.push((d, found[0].said())),
            Err(e) => api.unexpected(format!("the read-back failed: {e}")),
        }
        self.parity_checks += 1;
    }
}
