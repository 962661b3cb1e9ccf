//! The run's surroundings: waiting for the queue to finish a day, reading the event feed, the
//! receptionist's pages, the webhook deliveries at the end, and the printed report.

use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use reqwest::Method;

use crate::api::Api;
use crate::books::Books;
use crate::run::Run;
use crate::support::TestApp;
use crate::support::desk::{Browser, staff};
use crate::support::receiver::Receiver;

/// How long the queue may take to finish a day's registrations and receipts.
const QUEUE_WAIT: Duration = Duration::from_secs(30);

/// Waits until no registration or receipt is waiting to be sent.
pub async fn queue_done(api: &Api<'_>) {
    let deadline = Instant::now() + QUEUE_WAIT;
    // E-invoices wait days for their fiscalization and payment reports for the month's end:
    // `einvoices::settle` waits for those.
    let path = "/v1/compliance/submissions?status=queued,sending,retrying&limit=5\
        &kind=guest_registration,guest_departure,guest_withdrawal,fiscal_receipt,fiscal_payment_change";
    loop {
        let r = api.send(Method::GET, path, None).await;
        let pending = r.body["data"].as_array().map_or(0, Vec::len);
        if r.status == 200 && pending == 0 {
            return;
        }
        if Instant::now() > deadline {
            api.unexpected(format!("the queue did not finish the day: {}", r.body));
            return;
        }
        // A submission that waits for an earlier one about the same stay is looked at again
        // half a minute later, on the simulated clock: let the clock move on for it.
        if r.body["data"][0]["status"] == "retrying" {
            let now = api.app.clock().now();
            api.app.clock().set_now(now + chrono::Duration::seconds(31));
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The event feed, read as an integrator would, from where it stood when the webhook was
/// registered.
pub struct Feed {
    after: i64,
    pub ids: Vec<String>,
}

impl Feed {
    pub async fn start(api: &Api<'_>) -> Feed {
        let mut f = Feed {
            after: 0,
            ids: Vec::new(),
        };
        f.read(api).await;
        f.ids.clear();
        f
    }

    pub async fn read(&mut self, api: &Api<'_>) {
        loop {
            let path = format!("/v1/events?after={}&limit=200", self.after);
            let Some(page) = api.get(&path).await else {
                return;
            };
            for e in page["data"].as_array().into_iter().flatten() {
                self.ids
                    .push(e["id"].as_str().unwrap_or_default().to_string());
            }
            self.after = page["next_after"].as_i64().unwrap_or(self.after);
            if page["has_more"] != true {
                return;
            }
        }
    }
}

/// The receptionist: signs in each morning and looks at the day's pages.
pub struct Desk<'a> {
    app: &'a TestApp,
    password: String,
    /// Pages opened.
    pub pages: AtomicU64,
}

impl<'a> Desk<'a> {
    pub async fn open(app: &'a TestApp) -> Desk<'a> {
        let password = staff(app, "reception", "front_desk").await;
        Desk {
            app,
            password,
            pages: AtomicU64::new(0),
        }
    }

    /// Signs in, opens today's page and housekeeping; once a week the board and invoices.
    pub async fn visit(&self, api: &Api<'_>, d: NaiveDate, weekly: bool) {
        let b = Browser::sign_in(self.app, "reception", &self.password).await;
        let mut pages = vec!["/", "/housekeeping"];
        if weekly {
            pages.extend(["/board", "/invoices"]);
        }
        for _ in 0..4 {
            api.counted();
        }
        for p in pages {
            api.counted();
            self.pages.fetch_add(1, Ordering::Relaxed);
            let r = b.get(p).await;
            if r.status != 200 {
                api.unexpected(format!("{d}: desk page {p}: {}", r.status));
            }
        }
    }
}

/// Waits for every event of the feed to reach the receiver, each signed with the
/// endpoint's secret; answers how many distinct events arrived.
pub async fn deliveries(b: &mut Books, feed: &Feed, receiver: &Receiver, secret: &str) -> usize {
    let wanted: HashSet<&str> = feed.ids.iter().map(String::as_str).collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let hits = receiver.hits();
        let got: HashSet<String> = hits.iter().map(|h| h.header("webhook-id")).collect();
        let missing = wanted.iter().filter(|id| !got.contains(**id)).count();
        if missing == 0 || Instant::now() > deadline {
            if missing > 0 {
                b.failures
                    .push(format!("{missing} events never reached the receiver"));
            }
            let unsigned = hits
                .iter()
                .filter(|h| !crate::support::webhooks::verified_on_arrival(h, secret))
                .count();
            if unsigned > 0 {
                b.failures
                    .push(format!("{unsigned} deliveries fail the signature check"));
            }
            return got.len();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What the run prints.
pub struct Report<'a> {
    pub country: crate::country::Country,
    pub days: u64,
    pub rooms: usize,
    pub run: &'a Run<'a>,
    pub books: &'a Books,
    pub events: usize,
    pub delivered: usize,
    /// The registration office, the guests it holds as checked in, and of those, checked
    /// out (where it is told).
    pub office: &'static str,
    pub registered: (usize, Option<usize>),
    pub requests: u64,
    pub desk_pages: u64,
    pub simulated: Duration,
    pub wall: Duration,
}

fn euros(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, (cents % 100).abs())
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (t, b) = (&self.run.tally, self.books);
        let occupancy = b.nights_sold as f64 / (self.rooms as u64 * self.days) as f64 * 100.0;
        writeln!(
            f,
            "\nA year in a box ({:?}): {} days, {} rooms",
            self.country, self.days, self.rooms
        )?;
        writeln!(
            f,
            "bookings: {} requested, {} booked, {} refused (full), {} refused (minimum stay), {} walk-ins, {} cancelled, {} no-shows",
            t.requested,
            self.run.stays.len(),
            t.refused_full,
            t.refused_min_stay,
            t.walk_ins,
            t.cancelled,
            t.no_shows
        )?;
        writeln!(
            f,
            "stays: {} check-ins, {} check-outs ({} early), {} extended ({} refused), {} nights sold, occupancy {occupancy:.1} %",
            t.check_ins, t.check_outs, t.left_early, t.extended, t.extension_refused, b.nights_sold
        )?;
        writeln!(
            f,
            "money: {} invoices ({} interim), {} credit notes, {} charges, {} EUR of cancellation and no-show fees, {} EUR of deposits; invoiced {} - credited {} = paid {} ({} payments) + outstanding {} EUR",
            b.invoices,
            t.interim_bills,
            b.credit_notes,
            t.charges,
            euros(b.fees),
            euros(b.deposits),
            euros(b.invoiced),
            euros(b.credited),
            euros(b.paid),
            t.payments,
            euros(b.outstanding)
        )?;
        writeln!(
            f,
            "numbering: invoices per series {:?}; {} fiscal receipts ({} daily closures of the cash register, each equal to the day's cash and card), {} bank transfers outside the fiscal system, {} e-invoices fiscalized, {} of their payments reported ({} waiting for the month's end)",
            b.series,
            b.receipts,
            b.closures,
            b.outside_fiscal,
            b.einvoices,
            b.payments_reported,
            b.payments_waiting
        )?;
        let (held, out) = self.registered;
        writeln!(
            f,
            "{}: {held} guests registered{}, every one within 24 hours",
            self.office,
            out.map(|o| format!(", {o} of them checked out"))
                .unwrap_or_default()
        )?;
        writeln!(
            f,
            "events: {} in the feed, {} delivered to the webhook; desk pages {}",
            self.events, self.delivered, self.desk_pages
        )?;
        let secs = self.wall.as_secs_f64();
        writeln!(
            f,
            "time: {:.1} s simulating, {secs:.1} s in all; {} requests, {:.0} requests/s",
            self.simulated.as_secs_f64(),
            self.requests,
            self.requests as f64 / self.simulated.as_secs_f64()
        )?;
        write!(
            f,
            "checks: {}",
            if b.failures.is_empty() {
                "every one passed".to_string()
            } else {
                format!("{} failed", b.failures.len())
            }
        )
    }
}
