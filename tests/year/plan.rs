//! What the simulated guests want, decided from a seeded random generator, so a year's
//! requests can be made again: booking requests with their lead times, lengths, parties
//! and fates (cancelled, no-show, leaving early, extending), walk-ins, extras, and how each
//! bill is paid. Nothing here talks to the server.

use chrono::{Datelike, Days, NaiveDate};
use rand::Rng;
use rand::rngs::StdRng;

/// The room types the hotel sells: code, name, max occupancy, base rate, share of rooms.
pub const ROOM_TYPES: [(&str, &str, i64, i64, f64); 4] = [
    ("DBL", "Double", 2, 9800, 0.50),
    ("TWN", "Twin", 3, 10800, 0.25),
    ("FAM", "Family", 4, 15600, 0.15),
    ("STE", "Suite", 2, 21000, 0.10),
];

/// The plans every room type is sold on: code, English name, and how its price follows the
/// flexible plan's (hundredths of a percent; `None`: its own prices).
pub const RATE_PLANS: [(&str, &str, Option<i64>); 2] = [
    ("FLEX", "Flexible", None),
    ("NR", "Non-refundable", Some(-1000)),
];

/// Arrivals in these months must stay at least this long (high season).
pub const HIGH_SEASON_MIN_STAY: ([u32; 2], i64) = ([7, 8], 3);

/// New Year's Eve and the night before: arrivals stay at least two nights.
pub fn new_year_min_stay(night: NaiveDate) -> Option<i64> {
    (night.month() == 12 && night.day() >= 30).then_some(2)
}

/// What plan `rate_plan` of `room_type` asks for `night`: the flexible plan's price, or
/// the plan's share of it.
pub fn plan_price(room_type: usize, rate_plan: usize, night: NaiveDate) -> i64 {
    let flexible = price(room_type, night);
    match RATE_PLANS[rate_plan].2 {
        None => flexible,
        Some(bp) => flexible * (10_000 + bp) / 10_000,
    }
}

/// The flexible plan's price of `room_type` on `night`: the room type's rate moved by the
/// season of the month, rounded to the euro, 10 % more (again to the euro) on Friday and
/// Saturday nights.
pub fn price(room_type: usize, night: NaiveDate) -> i64 {
    let season = SEASON[night.month0() as usize];
    let base = ROOM_TYPES[room_type].3 as f64;
    let euros = (base * (0.75 + 0.5 * season) / 100.0).round();
    if weekend(night) {
        (euros * 1.1).round() as i64 * 100
    } else {
        euros as i64 * 100
    }
}

/// Friday and Saturday nights.
pub fn weekend(night: NaiveDate) -> bool {
    matches!(night.weekday(), chrono::Weekday::Fri | chrono::Weekday::Sat)
}

/// Demand by month of arrival, relative to the busiest month.
const SEASON: [f64; 12] = [
    0.45, 0.50, 0.60, 0.75, 0.85, 0.95, 1.0, 1.0, 0.85, 0.70, 0.50, 0.60,
];

/// What becomes of a booking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Arrives and leaves as booked.
    Stays,
    /// Leaves one night early.
    LeavesEarly,
    /// Asks for one more night on arrival.
    Extends,
    /// Cancelled on this day (before arrival).
    Cancels(NaiveDate),
    /// Never comes; marked the morning after arrival.
    NoShow,
}

/// A booking request (or a walk-in, made on the arrival day).
#[derive(Debug, Clone)]
pub struct Booking {
    pub arrival: NaiveDate,
    pub nights: u64,
    /// Index into [`ROOM_TYPES`].
    pub room_type: usize,
    pub adults: usize,
    pub children: Vec<NaiveDate>,
    /// Index into [`RATE_PLANS`].
    pub rate_plan: usize,
    pub source: &'static str,
    pub fate: Fate,
    /// Books again under an earlier guest's record.
    pub returning: bool,
    /// A guest who pays by bank transfer is billed to a company.
    pub payment: Payment,
}

/// How the bill is settled at check-out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payment {
    Card,
    Cash,
    /// Paid this many days after check-out (`None`: not by the end of the run); the
    /// invoice is first corrected by a credit note and re-billed when `disputed`.
    Transfer {
        after_days: Option<u64>,
        disputed: bool,
    },
}

impl Payment {
    pub fn method(self) -> &'static str {
        match self {
            Payment::Card => "card",
            Payment::Cash => "cash",
            Payment::Transfer { .. } => "bank_transfer",
        }
    }
}

/// An extra on a folio: description, tax rate, unit price and quantity.
pub type Extra = (&'static str, i64, i64, i64);

/// The requests made on `day` by guests of a hotel with `rooms` rooms.
pub fn requests(rng: &mut StdRng, day: NaiveDate, rooms: usize) -> Vec<Booking> {
    let candidates = poisson(rng, rooms as f64 * 0.40);
    let mut out = Vec::new();
    for _ in 0..candidates {
        let lead = lead_days(rng);
        let arrival = day + Days::new(lead);
        if rng.gen_bool(SEASON[arrival.month0() as usize]) {
            let source = pick_source(rng);
            out.push(booking(rng, day, arrival, source));
        }
    }
    out
}

/// The bookings already on the books when the run starts: those made in the 240 days
/// before `first` for arrivals from `first` on (those cancelled before it are gone).
pub fn backlog(rng: &mut StdRng, first: NaiveDate, rooms: usize) -> Vec<Booking> {
    let mut out = Vec::new();
    for k in (1..=240).rev() {
        out.extend(
            requests(rng, first - Days::new(k), rooms)
                .into_iter()
                .filter(|b| b.arrival >= first && !matches!(b.fate, Fate::Cancels(c) if c < first)),
        );
    }
    out
}

/// Walk-ins arriving on `day` (about one a day per 40 rooms).
pub fn walk_ins(rng: &mut StdRng, day: NaiveDate, rooms: usize) -> Vec<Booking> {
    let n = poisson(rng, rooms as f64 / 40.0);
    (0..n)
        .map(|_| {
            let mut b = booking(rng, day, day, "walk_in");
            b.nights = b.nights.min(3);
            b.fate = Fate::Stays;
            b
        })
        .collect()
}

fn booking(rng: &mut StdRng, made: NaiveDate, arrival: NaiveDate, source: &'static str) -> Booking {
    let nights = nights(rng);
    let (adults, kids) = match rng.gen_range(0..100) {
        0..35 => (1, 0),
        35..80 => (2, 0),
        80..88 => (3, 0),
        88..95 => (2, 1),
        _ => (2, 2),
    };
    let persons = adults + kids;
    let room_type = if persons > 3 {
        2
    } else if persons == 3 {
        if rng.gen_bool(0.6) { 1 } else { 2 }
    } else {
        match rng.gen_range(0..100) {
            0..70 => 0,
            70..88 => 1,
            _ => 3,
        }
    };
    let children = (0..kids)
        .map(|_| arrival - Days::new(365 * rng.gen_range(2..14) + rng.gen_range(0..300)))
        .collect();
    let lead = (arrival - made).num_days();
    let fate = match rng.gen_range(0..1000) {
        0..150 if lead >= 2 => Fate::Cancels(made + Days::new(rng.gen_range(1..lead as u64))),
        150..170 => Fate::NoShow,
        170..200 if nights >= 2 => Fate::LeavesEarly,
        200..230 => Fate::Extends,
        _ => Fate::Stays,
    };
    let payment = match rng.gen_range(0..100) {
        0..60 => Payment::Card,
        60..85 => Payment::Cash,
        _ => Payment::Transfer {
            after_days: rng.gen_bool(0.9).then(|| rng.gen_range(3..40)),
            disputed: rng.gen_bool(0.08),
        },
    };
    Booking {
        arrival,
        nights,
        room_type,
        adults,
        children,
        rate_plan: usize::from(rng.gen_bool(0.25)),
        source,
        fate,
        returning: rng.gen_bool(0.08),
        payment,
    }
}

/// Extras a party in house posts on one night (often none).
pub fn extras(rng: &mut StdRng, persons: usize) -> Vec<Extra> {
    let mut out = Vec::new();
    if rng.gen_bool(0.25) {
        out.push(("Restaurant", 1300, rng.gen_range(18..60) * 100, 1));
    }
    if rng.gen_bool(0.15) {
        out.push(("Minibar", 2500, 450, rng.gen_range(1..4)));
    }
    if rng.gen_bool(0.05) {
        out.push(("Spa", 2500, 4000, persons as i64));
    }
    if rng.gen_bool(0.08) {
        out.push(("Parking", 2500, 1500, 1));
    }
    if rng.gen_bool(0.005) {
        out.push(("Goodwill allowance", 1300, -1000, 1));
    }
    out
}

/// The last breakfast, added at check-out by some parties.
pub fn breakfast(rng: &mut StdRng, persons: usize) -> Option<Extra> {
    rng.gen_bool(0.3)
        .then_some(("Breakfast", 1300, 1500, persons as i64))
}

fn nights(rng: &mut StdRng) -> u64 {
    match rng.gen_range(0..100) {
        0..25 => 1,
        25..50 => 2,
        50..68 => 3,
        68..78 => 4,
        78..85 => 5,
        85..89 => 6,
        89..95 => 7,
        _ => rng.gen_range(8..15),
    }
}

fn lead_days(rng: &mut StdRng) -> u64 {
    match rng.gen_range(0..100) {
        0..15 => rng.gen_range(0..3),
        15..50 => rng.gen_range(3..22),
        50..85 => rng.gen_range(22..91),
        _ => rng.gen_range(91..241),
    }
}

fn pick_source(rng: &mut StdRng) -> &'static str {
    ["direct", "ota", "ota", "ota", "phone", "email"][rng.gen_range(0..6)]
}

/// A Poisson-distributed count with mean `mean` (Knuth's method; the means here are small).
fn poisson(rng: &mut StdRng, mean: f64) -> usize {
    let limit = (-mean).exp();
    let (mut k, mut p) = (0, 1.0);
    loop {
        p *= rng.r#gen::<f64>();
        if p <= limit {
            return k;
        }
        k += 1;
    }
}
