//! The departures of a day: the last breakfast added, the bill issued and paid at the desk
//! in the same call (card or cash: in Italy a receipt from the cash register), or billed to
//! the guest's company to pay by transfer later (an e-invoice), some disputed the next day.

use chrono::{Days, NaiveDate};
use serde_json::json;

use crate::api::each;
use crate::plan::{self, Fate, Payment};
use crate::run::{Run, State};

impl Run<'_> {
    /// Stays leaving today (and a night early, for those who do).
    pub async fn check_outs(&mut self, d: NaiveDate) {
        let leaving = self.select(|s| {
            s.state == State::InHouse
                && (s.departure == d
                    || (s.plan.fate == Fate::LeavesEarly
                        && s.departure == d + Days::new(1)
                        && s.departure - Days::new(2) >= s.plan.arrival))
        });
        let mut work = Vec::new();
        for &i in &leaving {
            let s = &self.stays[i];
            let mut charges = Vec::new();
            if let Some((desc, rate, price, qty)) = plan::breakfast(&mut self.rng, s.persons()) {
                charges.push(
                    json!({"description": desc, "tax_rate": self.country.rate(rate),
                                    "unit_price": price, "quantity": qty}),
                );
                self.stays[i].extras += price * qty;
            }
            let s = &self.stays[i];
            work.push((s.id.clone(), s.plan.payment, charges));
        }
        let (api, company) = (self.api, self.country.company());
        let bills = each(work, |(id, payment, charges)| {
            let company = company.clone();
            async move {
                let mut body = json!({"reservation_id": id, "charges": charges});
                if matches!(payment, Payment::Transfer { .. }) {
                    // Billed to the guest's company, to pay later: an e-invoice.
                    body["pay_later"] = json!(true);
                    body["bill_to"] = company;
                } else {
                    body["payments"] = json!([{"method": payment.method()}]);
                }
                let out = api.post("/v1/check-out", body, &[200]).await?;
                // A deposit more than the last bill (the nights since the last interim
                // bill) goes back to the card whole, and the bill charges those nights.
                let advances = out.body["reservation"]["deposit"]["advances"].as_array();
                let refunded: i64 = advances
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a["refunded"].as_i64())
                    .sum();
                Some((out.body["invoice"].clone(), refunded))
            }
        })
        .await;
        for (i, bill) in leaving.into_iter().zip(bills) {
            let Some((invoice, refunded)) = bill else {
                continue;
            };
            if refunded > 0 {
                self.tally.paid(d, "card", -refunded);
            }
            self.left(i, d, &invoice);
        }
    }

    /// Stay `i` left on `d` with its final `invoice`.
    fn left(&mut self, i: usize, d: NaiveDate, invoice: &serde_json::Value) {
        let s = &mut self.stays[i];
        if s.departure > d {
            s.departure = d;
            self.tally.left_early += 1;
        }
        s.state = State::Out;
        s.uninvoiced = 0;
        if let Some(room) = s.room {
            self.occupied[room] = None;
        }
        self.past_guests.push(s.guests[0].clone());
        self.tally.check_outs += 1;
        let id = invoice["id"].as_str().unwrap_or_default().to_string();
        let payment = s.plan.payment;
        match payment {
            Payment::Transfer {
                after_days,
                disputed,
            } => {
                if disputed {
                    self.disputes
                        .entry(d + Days::new(1))
                        .or_default()
                        .push(id.clone());
                }
                if let Some(after) = after_days {
                    self.transfers
                        .entry(d + Days::new(after))
                        .or_default()
                        .push(id);
                }
            }
            _ => {
                let paid = invoice["paid_amount"].as_i64().unwrap_or_default();
                self.tally.paid(d, payment.method(), paid);
            }
        }
    }
}
