//! A year in a box: a hotel's year replayed through the real HTTP API and desk pages, the
//! national authorities' simulators and a webhook receiver taking every event, on simulated
//! time, ending in checks that the books balance (see `books`). The hotel runs in Croatia
//! (eVisitor for registrations, the CIS for fiscal receipts, moj-eRačun for e-invoices) and
//! again in Italy (Alloggiati Web, the telematic cash register closing every day, SdI).
//!
//! The server runs in this process, so the simulated clock is the test harness's own
//! handle on it (`Db::clock`): the `innkeep` binary has no way to move its clock.
//! `cargo test --test year` replays a short run in each country (six weeks over a new year,
//! 12 rooms); `innkeep-bench year` runs a whole year in release. The size comes from
//! `INNKEEP_YEAR_DAYS`, `INNKEEP_YEAR_ROOMS` and `INNKEEP_YEAR_SEED`.

// Test code fails loudly on purpose: unwrap and expect are how a test says "this must hold".
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code, unused_imports)]
#[path = "../api/support/mod.rs"]
mod support;

mod api;
mod authorities;
mod books;
mod channel;
mod country;
mod day_close;
mod einvoices;
mod hotel;
mod in_house;
mod italy;
mod mail;
mod out;
mod plan;
mod reports;
mod run;
mod settle;

use std::time::{Duration, Instant};

use chrono::{Days, NaiveDate};
use rand::SeedableRng;

use authorities::{Authorities, Lists};
use country::Country;
use support::receiver::Receiver;

/// The first simulated day: mid-December, so that every run crosses a new year (invoice
/// and receipt numbers restart).
const FIRST_DAY: &str = "2026-12-10";

/// Named times as the report prints them: "name 1.2 s, …".
fn timings<'a>(times: impl Iterator<Item = (&'a str, Duration)>) -> String {
    times
        .map(|(n, t)| format!("{n} {:.1} s", t.as_secs_f64()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_croatian_year_in_a_box_balances() {
    year(Country::Croatia).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_italian_year_in_a_box_balances() {
    year(Country::Italy).await;
}

async fn year(country: Country) {
    let days = setting("INNKEEP_YEAR_DAYS", 45);
    let rooms = setting("INNKEEP_YEAR_ROOMS", 12) as usize;
    let seed = setting("INNKEEP_YEAR_SEED", 2026);
    let first: NaiveDate = FIRST_DAY.parse().unwrap();

    // Guests' messages go through an SMTP relay double.
    let relay = support::smtp::Relay::start().await;
    let (authorities, mut app) = Authorities::start(country, first, mail::config(&relay)).await;
    let started = Instant::now();
    let receiver = Receiver::start().await;
    let (_, secret) = support::webhooks::register(&app, &receiver.url("/hooks"), &["*"]).await;
    let api = api::Api::new(&app);
    let mut feed = settle::Feed::start(&api).await;
    let hotel = hotel::build(&app, rooms, country).await;
    // Bookings come up to 240 days ahead of the last day, stays last up to two weeks.
    let last = first + Days::new(days + 260);
    hotel::price_calendar(&app, &hotel, first, last).await;
    let desk = settle::Desk::open(&app).await;

    let rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut run = run::Run::new(&api, &hotel, rng, country);
    // Half the bookings come from booking sites, through the channel manager.
    run.channel = Some(channel::Channel::start(&app, (days + 270) as u32).await);
    run.open_books(first).await;
    // Each morning the day before is closed (in Italy that closure is the cash register's).
    let mut closes = day_close::Closes::default();
    // Where the wall time goes, phase by phase, summed over the days.
    let mut phases = [Duration::ZERO; 6];
    for n in 0..days {
        let d = first + Days::new(n);
        authorities.set_day(&app, d);
        let mut lap = Instant::now();
        let mut mark = |k: usize| {
            phases[k] += lap.elapsed();
            lap = Instant::now();
        };
        if n > 0 {
            closes.close(&api, &mut run, d - Days::new(1)).await;
        }
        mark(0);
        run.day(d).await;
        mark(1);
        desk.visit(&api, d, n % 7 == 0).await;
        mark(2);
        settle::queue_done(&api).await;
        mark(3);
        if let Some(c) = run.channel.as_mut() {
            c.close_day(&api, d).await;
        }
        mark(4);
        feed.read(&api).await;
        mark(5);
    }
    let names = [
        "day close",
        "the day's business",
        "desk pages",
        "queue drained",
        "channel manager",
        "event feed",
    ];
    println!("time by phase: {}", timings(names.into_iter().zip(phases)));
    println!(
        "the day's business by step: {}",
        timings(run.steps.iter().copied())
    );
    let last_day = first + Days::new(days - 1);
    authorities.set_day(&app, last_day + Days::new(1));
    closes.close(&api, &mut run, last_day).await;
    if matches!(country, Country::Italy) {
        // The fees of the no-shows that last close named were paid the morning after, in
        // the register's next day: once their receipts are printed, that evening's closure
        // ends the run's takings.
        let after = last_day + Days::new(1);
        run.tally.takings.entry(after).or_default();
        settle::queue_done(&api).await;
        let body = serde_json::json!({});
        api.post("/v1/compliance/cash-register/close", body, &[200])
            .await;
    }
    closes.verify(&api).await;
    feed.read(&api).await;
    let simulated = started.elapsed();

    einvoices::settle(&api).await;
    let lists = Lists::read(&api).await;
    let mut books =
        books::check_invoices(&run.stays, &lists.invoices, run.tally.paid, &run.replaced);
    authorities.check(&mut books, &run.stays, &lists, &run.tally.takings);
    if let Some(c) = &run.channel {
        for (d, what) in &c.differences {
            books.failures.push(format!(
                "on {d} the channel manager held other than innkeep: {what}"
            ));
        }
        let through = run.stays.iter().filter(|s| s.channel).count();
        println!(
            "channel manager: {through} of {} bookings through it, in step on {} of {} days",
            run.stays.len(),
            c.parity_checks as usize - c.differences.len(),
            c.parity_checks
        );
    }
    books.failures.append(&mut closes.failures);
    println!(
        "day close: {} days closed, {} no-shows named, every certificate chained; {} found an authority's work refused or late",
        closes.days, closes.no_shows, closes.late_days
    );
    let delivered = settle::deliveries(&mut books, &feed, &receiver, &secret).await;
    let mails = mail::check(&app, &relay, &mut books).await;
    let figures = reports::check(&api, &run.stays, rooms, &mut books).await;
    let errors = api.errors();

    let wall = started.elapsed();
    let report = settle::Report {
        country,
        days,
        rooms,
        run: &run,
        books: &books,
        events: feed.ids.len(),
        delivered,
        office: authorities.registration_office(),
        registered: authorities.registered(),
        requests: api.requests(),
        desk_pages: desk.pages.load(std::sync::atomic::Ordering::Relaxed),
        simulated,
        wall,
    };
    println!("{report}");
    println!("{mails}");
    println!("{figures}");
    for e in errors.iter().take(30) {
        println!("unexpected: {e}");
    }
    for f in books.failures.iter().take(30) {
        println!("failed: {f}");
    }
    let sold = run.tally.check_outs > 0 && books.nights_sold > 0;
    drop(run);
    drop(desk);
    drop(api);
    app.stop().await;
    assert!(errors.is_empty(), "{} unexpected answers", errors.len());
    assert!(
        books.failures.is_empty(),
        "the books do not balance: {:#?}",
        books.failures
    );
    assert!(sold, "nothing was sold");
}
