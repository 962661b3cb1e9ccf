//! The night audit every simulated night: the morning after each day the hotel closes it,
//! naming every arrival of the day still expected a no-show and counting in the drawer
//! exactly the cash the run paid that day. Each certificate must be for that day, pass
//! every check (every night billed once, the books balanced, gapless numbers, the
//! authorities' work accepted or in time, the cash as recorded) and name the hash before
//! it; at the end the whole chain verifies.

use chrono::NaiveDate;
use serde_json::{Value, json};

use crate::api::Api;
use crate::run::{Run, State};

/// What the closes found.
#[derive(Default)]
pub struct Closes {
    /// Days closed.
    pub days: usize,
    /// Arrivals the closes named no-shows.
    pub no_shows: u64,
    /// The last certificate's hash.
    last_hash: Option<String>,
    /// Days whose certificate found an authority's work refused or late.
    pub late_days: usize,
    /// What did not hold.
    pub failures: Vec<String>,
}

/// The checks of the authorities' work (the rest are the books').
const COMPLIANCE: [&str; 2] = ["registrations_accepted", "fiscal_documents_settled"];

impl Closes {
    /// Closes `d` (the clock stands on a later day).
    pub async fn close(&mut self, api: &Api<'_>, run: &mut Run<'_>, d: NaiveDate) {
        let Some(plan) = api.get("/v1/day-close").await else {
            return;
        };
        if plan["date"] != d.to_string() {
            self.failures
                .push(format!("the day to close was {}, not {d}", plan["date"]));
            return;
        }
        let waiting: Vec<String> = plan["arrivals_waiting"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["reservation_id"].as_str().map(str::to_string))
            .collect();
        let cash = run.tally.takings.get(&d).map_or(0, |t| t.0);
        let Some(reply) = api
            .post(
                "/v1/day-close",
                json!({"no_shows": waiting, "cash_counted": cash}),
                &[201],
            )
            .await
        else {
            return;
        };
        let c = reply.body;
        self.days += 1;
        let picked = run.select(|s| waiting.contains(&s.id));
        let settled = run.settle_fees(picked, State::NoShow).await;
        self.no_shows += settled;
        run.tally.no_shows += settled;
        self.check(d, &c);
    }

    fn check(&mut self, d: NaiveDate, c: &Value) {
        for failed in c["checks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|x| x["passed"] != true)
        {
            // A registration or receipt past its deadline while an authority was down is
            // what the certificate must say, not a fault of the books: counted, not failed.
            if COMPLIANCE.contains(&failed["check"].as_str().unwrap_or_default()) {
                self.late_days += 1;
                continue;
            }
            self.failures.push(format!(
                "day {d}: check {} failed: {}",
                failed["check"], failed["detail"]
            ));
        }
        if c["previous_hash"].as_str() != self.last_hash.as_deref() {
            self.failures.push(format!(
                "day {d}: the certificate does not name the day before's hash"
            ));
        }
        if c["verified"] != true {
            self.failures
                .push(format!("day {d}: the certificate does not verify"));
        }
        self.last_hash = c["hash"].as_str().map(str::to_string);
    }

    /// The chain read back at the end: every day, in order, each verified.
    pub async fn verify(&mut self, api: &Api<'_>) {
        let all = api.all("/v1/day-closes").await;
        if all.len() != self.days {
            self.failures
                .push(format!("{} days closed, {} listed", self.days, all.len()));
        }
        for c in all.iter().filter(|c| c["verified"] != true) {
            self.failures
                .push(format!("the certificate of {} does not verify", c["date"]));
        }
    }
}
