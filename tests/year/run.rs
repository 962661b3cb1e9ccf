//! The simulated days. Each morning the clock moves to the next day and the hotel works
//! through it in the order a front desk does: yesterday's no-shows, departures and their
//! bills, transfers that came in, disputed bills corrected, rooms cleaned, cancellations,
//! new bookings and walk-ins, arrivals, extras on folios, interim bills for long stays, the
//! desk's pages; then the queue is left to finish (registrations, fiscal receipts,
//! webhooks) and the event feed is read.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use chrono::{Days, NaiveDate};
use rand::rngs::StdRng;
use serde_json::{Value, json};

use crate::api::{Api, each, pay};
use crate::channel::Channel;
use crate::country::Country;
use crate::hotel::{self, Built};
use crate::plan::{self, Booking, Fate};

/// Where a stay is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Confirmed,
    InHouse,
    Out,
    Cancelled,
    NoShow,
}

/// A booking the server accepted, as the run knows it.
#[derive(Debug, Clone)]
pub struct Stay {
    pub plan: Booking,
    pub id: String,
    pub guests: Vec<String>,
    /// The departure as it stands (an extension or an early leave moves it).
    pub departure: NaiveDate,
    pub state: State,
    pub room: Option<usize>,
    /// Gross of every folio charge posted, and of those not yet on an invoice.
    pub extras: i64,
    pub uninvoiced: i64,
    /// The deposit paid by card at booking (the non-refundable plan's first night).
    pub deposit: i64,
    /// Booked on a booking site, through the channel manager.
    pub channel: bool,
}

impl Stay {
    pub fn persons(&self) -> usize {
        self.plan.adults + self.plan.children.len()
    }
}

/// Counts of what happened.
#[derive(Debug, Default)]
pub struct Tally {
    pub requested: u64,
    pub refused_full: u64,
    /// Refused by the plan's minimum stay (high season, New Year).
    pub refused_min_stay: u64,
    pub walk_ins: u64,
    pub cancelled: u64,
    pub no_shows: u64,
    pub check_ins: u64,
    pub check_outs: u64,
    pub left_early: u64,
    pub extended: u64,
    pub extension_refused: u64,
    pub charges: u64,
    pub interim_bills: u64,
    pub credit_notes: u64,
    pub payments: u64,
    /// Minor units paid through the API.
    pub paid: i64,
    /// Per day, the cash and the card payments recorded (what the cash register must
    /// have taken, in Italy).
    pub takings: BTreeMap<NaiveDate, (i64, i64)>,
}

impl Tally {
    /// Counts a payment of `amount` by `method` recorded on `day`.
    pub fn paid(&mut self, day: NaiveDate, method: &str, amount: i64) {
        if amount == 0 {
            return;
        }
        self.payments += 1;
        self.paid += amount;
        let taken = self.takings.entry(day).or_default();
        match method {
            "cash" => taken.0 += amount,
            "card" => taken.1 += amount,
            _ => {}
        }
    }
}

/// The run's state between days.
pub struct Run<'a> {
    pub api: &'a Api<'a>,
    pub country: Country,
    pub hotel: &'a Built,
    pub rng: StdRng,
    pub stays: Vec<Stay>,
    pub tally: Tally,
    /// Per room, the stay in it.
    pub occupied: Vec<Option<usize>>,
    /// Guests who stayed before (returning guests book under their record).
    pub past_guests: Vec<String>,
    pub guest_numbers: usize,
    /// Invoices paid by transfer on a later day.
    pub transfers: BTreeMap<NaiveDate, Vec<String>>,
    /// Invoices whose company disputes them the next day.
    pub disputes: BTreeMap<NaiveDate, Vec<String>>,
    /// Invoice corrected by a credit note → the invoice that replaced it.
    pub replaced: HashMap<String, String>,
    /// The channel manager that brings the booking sites' bookings (set after `new`).
    pub channel: Option<Channel>,
    /// Where the day's business spends its wall time, step by step, summed over the days.
    pub steps: Vec<(&'static str, Duration)>,
}

impl<'a> Run<'a> {
    pub fn new(api: &'a Api<'a>, hotel: &'a Built, rng: StdRng, country: Country) -> Run<'a> {
        Run {
            api,
            country,
            hotel,
            rng,
            stays: Vec::new(),
            tally: Tally::default(),
            occupied: vec![None; hotel.rooms.len()],
            past_guests: Vec::new(),
            guest_numbers: 0,
            transfers: BTreeMap::new(),
            disputes: BTreeMap::new(),
            replaced: HashMap::new(),
            channel: None,
            steps: Vec::new(),
        }
    }

    /// The bookings made before the first day, entered on it.
    pub async fn open_books(&mut self, first: NaiveDate) {
        let backlog = plan::backlog(&mut self.rng, first, self.hotel.rooms.len());
        self.book(backlog, &mut Instant::now()).await;
        // The backlog comes before the first day: none of the days' business.
        self.steps.clear();
    }

    /// One day at the desk (the clock already stands on it); every day has its takings,
    /// if only none.
    pub async fn day(&mut self, d: NaiveDate) {
        self.tally.takings.entry(d).or_default();
        let mut lap = Instant::now();
        self.no_shows(d).await;
        self.lap("no-shows", &mut lap);
        self.check_outs(d).await;
        self.lap("check-outs", &mut lap);
        self.transfers_in(d).await;
        self.corrections(d).await;
        self.lap("transfers and corrections", &mut lap);
        self.cancellations(d).await;
        self.lap("cancellations", &mut lap);
        let requests = plan::requests(&mut self.rng, d, self.hotel.rooms.len());
        self.book(requests, &mut lap).await;
        let walk_ins = plan::walk_ins(&mut self.rng, d, self.hotel.rooms.len());
        self.tally.walk_ins += walk_ins.len() as u64;
        self.book(walk_ins, &mut lap).await;
        self.check_ins(d).await;
        self.lap("check-ins", &mut lap);
        self.extras(d).await;
        self.interim_bills(d).await;
        self.lap("extras and interim bills", &mut lap);
    }

    /// Adds the time since `lap` to `step`'s and starts the next lap.
    fn lap(&mut self, step: &'static str, lap: &mut Instant) {
        let spent = lap.elapsed();
        *lap = Instant::now();
        match self.steps.iter_mut().find(|(s, _)| *s == step) {
            Some((_, t)) => *t += spent,
            None => self.steps.push((step, spent)),
        }
    }

    /// Confirmed stays whose arrival has passed are marked no-show.
    async fn no_shows(&mut self, d: NaiveDate) {
        let gone = self.select(|s| s.state == State::Confirmed && s.plan.arrival < d);
        self.tally.no_shows += self.set_status(gone, "no_show", State::NoShow).await;
    }

    /// Puts each of `picked` in `status` (a PUT); answers how many the server took.
    async fn set_status(&mut self, picked: Vec<usize>, status: &str, to: State) -> u64 {
        let api = self.api;
        let ids: Vec<String> = picked.iter().map(|&i| self.stays[i].id.clone()).collect();
        let put = each(ids, |id| async move {
            let path = format!("/v1/reservations/{id}");
            api.put(&path, json!({ "status": status }), &[200]).await
        })
        .await;
        let taken = picked
            .into_iter()
            .zip(put)
            .filter_map(|(i, r)| r.map(|_| i))
            .collect();
        self.settle_fees(taken, to).await
    }

    /// After stays were cancelled or marked no-show (by a PUT or by the day close): the
    /// plan's fee, when it charges one and the deposit did not pay it, is taken from the
    /// card at once; each stay is then in `to`. Answers how many were settled.
    pub async fn settle_fees(&mut self, picked: Vec<usize>, to: State) -> u64 {
        let api = self.api;
        let ids: Vec<(String, i64)> = picked
            .iter()
            .map(|&i| (self.stays[i].id.clone(), self.stays[i].deposit))
            .collect();
        let done = each(ids, |(id, deposit)| async move {
            let path = format!("/v1/reservations/{id}");
            let charges = api.all(&format!("{path}/charges")).await;
            let mut moved = 0;
            if charges.iter().any(|c| c["invoice_id"].is_null()) {
                let body = json!({"reservation_id": id, "payments": [{"method": "card"}]});
                let bill = api.post("/v1/invoices", body, &[201]).await?.body;
                moved = bill["paid_amount"].as_i64()?;
            }
            if deposit > 0 {
                // The deposit went back to the card, less the fee it paid: what the
                // booking's invoices hold now, less the deposit paid at booking.
                let all = api.all(&format!("/v1/invoices?reservation_id={id}")).await;
                let held: i64 = all.iter().filter_map(|i| i["paid_amount"].as_i64()).sum();
                moved = held - deposit;
            }
            Some(moved)
        })
        .await;
        let mut changed = 0;
        let day = api.app.clock().today_in("Europe/Zagreb");
        for (i, fee) in picked.into_iter().zip(done) {
            if let Some(fee) = fee {
                self.stays[i].state = to;
                changed += 1;
                self.tally.paid(day, "card", fee);
            }
        }
        changed
    }

    /// Transfers that arrive today pay what is still open on their invoice (or on the
    /// invoice that replaced it).
    async fn transfers_in(&mut self, d: NaiveDate) {
        let due: Vec<String> = self
            .transfers
            .remove(&d)
            .unwrap_or_default()
            .into_iter()
            .map(|id| self.replaced.get(&id).cloned().unwrap_or(id))
            .collect();
        let api = self.api;
        let paid_now = each(due, |id| async move {
            let invoice = api.get(&format!("/v1/invoices/{id}")).await?;
            pay(api, &invoice, "bank_transfer").await
        })
        .await;
        for amount in paid_now.into_iter().flatten() {
            self.tally.paid(d, "bank_transfer", amount);
        }
    }

    /// A company disputes yesterday's bill: a credit note reverses it and the same lines are
    /// billed again to the agency: in Croatia as a sale outside the stay, in Italy as the
    /// corrected invoice replacing it (`reissues_invoice_id`).
    async fn corrections(&mut self, d: NaiveDate) {
        let disputed = self.disputes.remove(&d).unwrap_or_default();
        let (api, country) = (self.api, self.country);
        let done = each(disputed, |id| async move {
            let original = api.get(&format!("/v1/invoices/{id}")).await?;
            api.post(
                "/v1/invoices",
                json!({"corrects_invoice_id": id, "reason": "Billed to the wrong company"}),
                &[201],
            )
            .await?;
            let again = match country {
                Country::Italy => json!({"reissues_invoice_id": id, "bill_to": country.agency(),
                                         "payment_method": "bank_transfer"}),
                Country::Croatia => {
                    let lines: Vec<Value> = original["lines"]
                        .as_array()?
                        .iter()
                        .map(|l| {
                            json!({"description": l["description"], "quantity": l["quantity"],
                                   "unit_price": l["unit_price"], "tax_rate": l["tax_rate"]})
                        })
                        .collect();
                    json!({"guest_id": original["guest_id"], "payment_method": "bank_transfer",
                           "bill_to": country.agency(), "lines": lines})
                }
            };
            let again = api.post("/v1/invoices", again, &[201]).await?;
            Some((id, again.id()))
        })
        .await;
        for (old, new) in done.into_iter().flatten() {
            self.tally.credit_notes += 1;
            self.replaced.insert(old, new);
        }
    }

    async fn cancellations(&mut self, d: NaiveDate) {
        let going = self.select(|s| {
            s.state == State::Confirmed && s.plan.fate == Fate::Cancels(d) && !s.channel
        });
        self.tally.cancelled += self.set_status(going, "cancelled", State::Cancelled).await;
        // The booking sites' cancellations come through the channel manager.
        let going = self.select(|s| {
            s.state == State::Confirmed && s.plan.fate == Fate::Cancels(d) && s.channel
        });
        for i in going {
            let (id, plan) = (self.stays[i].id.clone(), self.stays[i].plan.clone());
            let Some(channel) = self.channel.as_mut() else {
                continue;
            };
            if channel.cancel(self.api, &id, &plan).await {
                self.stays[i].state = State::Cancelled;
                self.tally.cancelled += 1;
            } else {
                self.api.unexpected(format!(
                    "the booking site's cancellation of {id} was not taken"
                ));
            }
        }
    }

    /// Books each request: its guests' records (a returning guest's is reused), then the
    /// reservation; a full house is an answer, not an error. Its time goes into the day's
    /// steps from `lap` on, the sites' bookings and the others apart.
    async fn book(&mut self, requests: Vec<Booking>, lap: &mut Instant) {
        self.tally.requested += requests.len() as u64;
        // The booking sites' bookings (half of all) come through the channel manager.
        let (sites, requests): (Vec<Booking>, Vec<Booking>) = requests
            .into_iter()
            .partition(|b| b.source == "ota" && self.channel.is_some());
        self.book_on_sites(sites).await;
        self.lap("bookings from the sites", lap);
        let mut work = Vec::new();
        // A returning guest is never booked twice at once: the tourist board refuses a
        // person already checked in at the property.
        let mut busy: std::collections::HashSet<String> = self
            .stays
            .iter()
            .filter(|s| matches!(s.state, State::Confirmed | State::InHouse))
            .flat_map(|s| s.guests.iter().cloned())
            .collect();
        for b in requests {
            let free: Vec<&String> = self
                .past_guests
                .iter()
                .filter(|g| !busy.contains(*g))
                .collect();
            let returning = (b.returning && !free.is_empty()).then(|| {
                let n = rand::Rng::gen_range(&mut self.rng, 0..free.len());
                free[n].clone()
            });
            if let Some(g) = &returning {
                busy.insert(g.clone());
            }
            let mut bodies = Vec::new();
            for k in 0..b.adults + b.children.len() {
                if k == 0 && returning.is_some() {
                    continue;
                }
                self.guest_numbers += 1;
                let born = k.checked_sub(b.adults).map(|c| b.children[c]);
                bodies.push(hotel::guest(
                    &mut self.rng,
                    self.guest_numbers,
                    k == 0,
                    born,
                ));
            }
            let room_type = self.hotel.room_types[b.room_type].clone();
            let plan = self.hotel.rate_plans[b.room_type][b.rate_plan].clone();
            work.push((b, returning, bodies, (room_type, plan)));
        }
        let api = self.api;
        let booked = each(work, |(b, returning, bodies, (room_type, plan))| async move {
            let mut guests: Vec<String> = returning.into_iter().collect();
            for body in bodies {
                guests.push(api.post("/v1/guests", body, &[201]).await?.id());
            }
            let departure = b.arrival + Days::new(b.nights);
            let r = api
                .post(
                    "/v1/reservations",
                    json!({"primary_guest_id": guests[0], "guest_ids": guests, "room_type_id": room_type,
                           "arrival": b.arrival, "departure": departure, "adults": b.adults,
                           "children": b.children.len(), "rate_plan_id": plan,
                           "source": b.source}),
                    &[201, 409],
                )
                .await?;
            if r.status == 409 {
                let code = r.body["code"].as_str().unwrap_or_default().to_string();
                if !["no_availability", "min_stay"].contains(&code.as_str()) {
                    api.unexpected(format!("booking refused: {}", r.body));
                }
                return Some(Err(code));
            }
            // The plan's deposit, when it asks one, is paid by card as the booking is made.
            let (id, due) = (r.id(), r.body["deposit"]["due"].as_i64().unwrap_or(0));
            if due > 0 {
                let body = json!({"amount": due, "payment_method": "card"});
                api.post(&format!("/v1/reservations/{id}/deposit"), body, &[201])
                    .await?;
            }
            Some(Ok(Stay {
                id,
                guests,
                departure,
                state: State::Confirmed,
                room: None,
                extras: 0,
                uninvoiced: 0,
                deposit: due,
                channel: false,
                plan: b,
            }))
        })
        .await;
        let day = api.app.clock().today_in("Europe/Zagreb");
        for outcome in booked.into_iter().flatten() {
            match outcome {
                Ok(stay) => {
                    self.tally.paid(day, "card", stay.deposit);
                    self.stays.push(stay);
                }
                Err(code) if code == "min_stay" => self.tally.refused_min_stay += 1,
                Err(_) => self.tally.refused_full += 1,
            }
        }
        self.lap("bookings at the desk and walk-ins", lap);
    }

    /// Books each of `sites` through the channel manager, one at a time as they arrive;
    /// then the desk completes the ones taken, a few at a time.
    async fn book_on_sites(&mut self, sites: Vec<Booking>) {
        let mut sold = Vec::new();
        for b in sites {
            let mut bodies = Vec::new();
            for k in 0..b.adults + b.children.len() {
                self.guest_numbers += 1;
                let born = k.checked_sub(b.adults).map(|c| b.children[c]);
                bodies.push(hotel::guest(
                    &mut self.rng,
                    self.guest_numbers,
                    k == 0,
                    born,
                ));
            }
            let Some(channel) = self.channel.as_mut() else {
                return;
            };
            match channel.book(self.api, self.hotel, &b, &bodies[0]).await {
                None => {}
                Some(Err(code)) if code == "min_stay" => self.tally.refused_min_stay += 1,
                Some(Err(_)) => self.tally.refused_full += 1,
                Some(Ok(ids)) => sold.push((b, ids, bodies)),
            }
        }
        let api = self.api;
        let done = each(sold, |(b, (booking, code), bodies)| async move {
            let taken = Channel::complete(api, &b, &code, bodies).await;
            (b, (booking, code), taken)
        })
        .await;
        for (b, (booking, code), taken) in done {
            let Some((id, guests)) = taken else {
                continue;
            };
            if let Some(channel) = self.channel.as_mut() {
                channel.taken(&id, booking, code);
            }
            self.stays.push(Stay {
                id,
                guests,
                departure: b.arrival + Days::new(b.nights),
                state: State::Confirmed,
                room: None,
                extras: 0,
                uninvoiced: 0,
                deposit: 0,
                channel: true,
                plan: b,
            });
        }
    }

    /// The indexes of the stays that `keep` picks.
    pub fn select(&self, keep: impl Fn(&Stay) -> bool) -> Vec<usize> {
        (0..self.stays.len())
            .filter(|&i| keep(&self.stays[i]))
            .collect()
    }
}
