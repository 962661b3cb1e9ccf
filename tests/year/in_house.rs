//! The in-house part of a day: arrivals get a free room of their type and are checked in
//! (some ask for a night more), parties post extras on their folios, and long stays get an
//! interim bill for their extras each week.

use chrono::{Days, NaiveDate};
use serde_json::json;

use crate::api::each;
use crate::plan::{self, Fate};
use crate::run::{Run, State};

impl Run<'_> {
    /// Today's arrivals (no-shows stay away), each in a free room of the booked type.
    pub async fn check_ins(&mut self, d: NaiveDate) {
        let arriving = self.select_arrivals(d);
        let mut work = Vec::new();
        for i in arriving {
            let s = &self.stays[i];
            let free = (0..self.hotel.rooms.len()).find(|&r| {
                self.occupied[r].is_none() && self.hotel.rooms[r].room_type == s.plan.room_type
            });
            let Some(room) = free else {
                self.api
                    .unexpected(format!("no free room of the type for {}", s.id));
                continue;
            };
            self.occupied[room] = Some(i);
            let extend = (s.plan.fate == Fate::Extends).then_some(s.departure + Days::new(1));
            work.push((
                i,
                s.id.clone(),
                room,
                self.hotel.rooms[room].id.clone(),
                extend,
            ));
        }
        let api = self.api;
        let done = each(work, |(i, id, room, room_id, extend)| async move {
            let body = json!({"reservation_id": id, "room_id": room_id});
            if api.post("/v1/check-in", body, &[200]).await.is_none() {
                return (i, room, false, None);
            }
            let Some(departure) = extend else {
                return (i, room, true, None);
            };
            let path = format!("/v1/reservations/{id}");
            let longer = api
                .put(&path, json!({"departure": departure}), &[200, 409])
                .await;
            let granted = longer.map(|r| {
                if r.status == 409 && r.body["code"] != "no_availability" {
                    api.unexpected(format!("extension refused: {}", r.body));
                }
                r.status == 200
            });
            (i, room, true, granted.map(|g| (departure, g)))
        })
        .await;
        for (i, room, checked_in, extension) in done {
            if !checked_in {
                self.occupied[room] = None;
                continue;
            }
            let s = &mut self.stays[i];
            s.state = State::InHouse;
            s.room = Some(room);
            self.tally.check_ins += 1;
            match extension {
                Some((departure, true)) => {
                    s.departure = departure;
                    self.tally.extended += 1;
                }
                Some((_, false)) => self.tally.extension_refused += 1,
                None => {}
            }
        }
    }

    fn select_arrivals(&self, d: NaiveDate) -> Vec<usize> {
        (0..self.stays.len())
            .filter(|&i| {
                let s = &self.stays[i];
                s.state == State::Confirmed && s.plan.arrival == d && s.plan.fate != Fate::NoShow
            })
            .collect()
    }

    /// Parties staying tonight post the evening's extras.
    pub async fn extras(&mut self, d: NaiveDate) {
        let mut work = Vec::new();
        for i in 0..self.stays.len() {
            let s = &self.stays[i];
            if s.state != State::InHouse || s.departure <= d {
                continue;
            }
            for (desc, rate, price, qty) in plan::extras(&mut self.rng, s.persons()) {
                let rate = self.country.rate(rate);
                work.push((i, s.id.clone(), (desc, rate, price, qty)));
            }
        }
        let api = self.api;
        let posted = each(work, |(i, id, (desc, rate, price, qty))| async move {
            let body = json!({"description": desc, "tax_rate": rate, "unit_price": price,
                              "quantity": qty});
            let path = format!("/v1/reservations/{id}/charges");
            api.post(&path, body, &[201])
                .await
                .map(|_| (i, price * qty))
        })
        .await;
        for (i, amount) in posted.into_iter().flatten() {
            self.stays[i].extras += amount;
            self.stays[i].uninvoiced += amount;
            self.tally.charges += 1;
        }
    }

    /// Each seventh night of a stay that goes on, the extras so far are billed and paid by
    /// card at the desk (in Italy, a receipt from the cash register).
    pub async fn interim_bills(&mut self, d: NaiveDate) {
        let due: Vec<usize> = (0..self.stays.len())
            .filter(|&i| {
                let s = &self.stays[i];
                s.state == State::InHouse
                    && s.uninvoiced > 0
                    && s.departure > d + Days::new(1)
                    && (d - s.plan.arrival).num_days() % 7 == 6
            })
            .collect();
        let api = self.api;
        let ids: Vec<String> = due.iter().map(|&i| self.stays[i].id.clone()).collect();
        let billed = each(ids, |id| async move {
            let body = json!({"reservation_id": id, "payments": [{"method": "card"}]});
            let invoice = api.post("/v1/invoices", body, &[201]).await?.body;
            invoice["paid_amount"].as_i64()
        })
        .await;
        for (i, paid) in due.into_iter().zip(billed) {
            if let Some(amount) = paid {
                self.stays[i].uninvoiced = 0;
                self.tally.interim_bills += 1;
                self.tally.paid(d, "card", amount);
            }
        }
    }
}
