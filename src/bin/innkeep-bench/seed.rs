//! Seeds a fresh data directory straight through rusqlite: room types, rooms, guests with
//! realistic names, and ten years of finished stays (so that today and the future are free
//! for the load).

use std::path::Path;

use chrono::{Duration, NaiveDate, Utc};
use rusqlite::{Connection, params};

/// What was seeded.
pub struct Dataset {
    /// Room types: (id, rooms of that type).
    pub room_types: Vec<(String, Vec<String>)>,
    /// Guest ids.
    pub guests: Vec<String>,
    /// Dates that have arrivals.
    pub first_arrival: NaiveDate,
    /// Each seeded guest's surname, by guest (what the search operation looks for).
    pub last_names: Vec<String>,
    /// About a thousand reservation ids spread over the history (for the reservation page).
    pub sample: Vec<String>,
}

const FIRST: &[&str] = &[
    "Anna", "Marco", "Giulia", "Luca", "Sofia", "Matteo", "Emma", "Leon", "Mia", "Noah", "Lena",
    "Paul", "Ivana", "Marko", "Petra", "Ivan", "Maria", "Josip", "Elena", "David", "Sara", "Tomas",
    "Laura", "Jonas", "Clara", "Felix", "Hanna", "Lukas", "Nina", "Elias", "Olivia", "Hugo",
    "Chloe", "Louis", "Alice", "Jules", "Ines", "Arthur", "Lea", "Adam",
];

/// Surname stems; with the syllables below they make about 12,000 distinct surnames, so a
/// surname is shared by a few dozen guests, as in a real guest book.
const STEMS: &[&str] = &[
    "Ross", "Bian", "Ferr", "Ricc", "Mar", "Gall", "Cont", "Cost", "Lomb", "Mor", "Horv", "Kov",
    "Bab", "Jur", "Nov", "Knez", "Vuk", "Pet", "Tom", "Pav", "Boz", "Grg", "Rad", "Mull", "Schm",
    "Schn", "Fisch", "Web", "Mey", "Wagn", "Beck", "Hoff", "Bern", "Dub", "Rich", "Dur", "Ler",
    "Laur", "Lef", "Garc", "Fern", "Lop", "Sanch", "Gom", "Smith", "Jon", "Tayl", "Brow", "Wils",
    "John", "Dav", "Ev", "Walk", "Whit", "Harr", "Mart", "Thomps", "Rob", "Clar", "Lew",
];
const MIDDLES: &[&str] = &[
    "a", "e", "i", "o", "u", "an", "el", "in", "or", "ur", "ab", "ed", "ik", "om", "us", "ar",
    "en", "is", "ol", "ut",
];
const ENDINGS: &[&str] = &[
    "i", "o", "ini", "etti", "ic", "ovic", "er", "mann", "son", "ez", "ard", "ot",
];

/// The `n`th surname.
fn surname(n: u64) -> String {
    let s = STEMS[(n % STEMS.len() as u64) as usize];
    let n = n / STEMS.len() as u64;
    let m = MIDDLES[(n % MIDDLES.len() as u64) as usize];
    let e = ENDINGS[((n / MIDDLES.len() as u64) % ENDINGS.len() as u64) as usize];
    format!("{s}{m}{e}")
}

/// A deterministic six-character confirmation code for seeded row `n` (the server's own
/// codes are random and checked for clashes).
fn code(n: u64) -> String {
    const ALPHABET: &[u8; 31] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    (0..6)
        .map(|i| ALPHABET[((n / 31u64.pow(i)) % 31) as usize] as char)
        .collect()
}

/// Seeds `db` (already migrated). `rooms` are spread over four room types.
pub fn seed(db: &Path, reservations: u64, guests: u64, rooms: u64) -> rusqlite::Result<Dataset> {
    let mut conn = Connection::open(db)?;
    conn.execute_batch("PRAGMA cache_size = -512000; PRAGMA foreign_keys = ON;")?;
    // innkeep's own SQL functions, with which the running totals are counted.
    innkeep::db::functions(&conn)?;
    let now = Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    let tx = conn.transaction()?;
    let mut room_types = Vec::new();
    for (i, (code, name)) in [
        ("SGL", "Single"),
        ("DBL", "Double"),
        ("TWN", "Twin"),
        ("STE", "Suite"),
    ]
    .into_iter()
    .enumerate()
    {
        let id = innkeep::ids::new("rt");
        tx.execute(
            "INSERT INTO room_types (id, code, name, max_occupancy, base_rate, currency, version,
                 created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 'EUR', 1, ?6, ?6)",
            params![id, code, name, 2 + i as i64, 8000 + 3000 * i as i64, now],
        )?;
        room_types.push((id, Vec::new()));
    }
    for n in 0..rooms {
        let id = innkeep::ids::new("rm");
        let kind = (n % 4) as usize;
        tx.execute(
            "INSERT INTO rooms (id, number, room_type_id, floor, housekeeping_status, version,
                 created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'clean', 1, ?5, ?5)",
            params![
                id,
                format!("{}", 100 + n),
                room_types[kind].0,
                (n / 20) as i64,
                now
            ],
        )?;
        room_types[kind].1.push(id);
    }
    let mut guest_ids = Vec::with_capacity(guests as usize);
    let mut last_names = Vec::with_capacity(guests as usize);
    {
        let mut stmt = tx.prepare(
            "INSERT INTO guests (id, first_name, last_name, email, email_key, name_key, sort_key,
                 version, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, 1, ?7, ?7)",
        )?;
        for n in 0..guests {
            let f = FIRST[(n % FIRST.len() as u64) as usize];
            let kinds = (STEMS.len() * MIDDLES.len() * ENDINGS.len()) as u64;
            let l = surname((n.wrapping_mul(2_654_435_761) >> 7) % kinds);
            let (name_key, sort_key) = innkeep::store::guests::name_keys(f, &l);
            let (fl, ll) = (f.to_lowercase(), l.to_lowercase());
            let id = innkeep::ids::new("gst");
            let email = format!("{fl}.{}{n}@example.com", ll.replace(' ', ""));
            stmt.execute(params![id, f, l.as_str(), email, name_key, sort_key, now])?;
            guest_ids.push(id);
            last_names.push(l);
        }
    }
    let today = Utc::now().date_naive();
    let days = 3650_i64;
    let first_arrival = today - Duration::days(days + 5);
    let mut sample = Vec::new();
    let every = (reservations / 1000).max(1);
    {
        let mut res = tx.prepare(
            "INSERT INTO reservations (id, code, status, primary_guest_id, room_type_id,
                 room_id, arrival, departure, adults, children, nightly_rate, currency, source,
                 checked_in_at, checked_out_at, cancelled_at, version, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 2, 0, 9000, 'EUR', 'direct', ?9, ?10, ?11,
                 3, ?12, ?12)",
        )?;
        let mut rg = tx.prepare(
            "INSERT INTO reservation_guests (reservation_id, guest_id, position)
             VALUES (?1, ?2, 0)",
        )?;
        for n in 0..reservations {
            // Spread evenly over ten years, all finished before today.
            let arrival = first_arrival + Duration::days((n as i64 * days) / reservations as i64);
            let departure = arrival + Duration::days(1 + (n % 4) as i64);
            let (kind, rooms) = &room_types[(n % 4) as usize];
            let room = &rooms[((n / 4) % rooms.len() as u64) as usize];
            let guest = &guest_ids[(n % guests) as usize];
            let stamp = format!("{arrival}T12:00:00.000Z");
            let (status, room, inn, out, cancelled) = match n % 20 {
                0 => ("cancelled", None, None, None, Some(&stamp)),
                1 => ("no_show", None, None, None, None),
                _ => ("checked_out", Some(room), Some(&stamp), Some(&stamp), None),
            };
            let id = innkeep::ids::new("res");
            res.execute(params![
                id,
                code(n),
                status,
                guest,
                kind,
                room,
                arrival.to_string(),
                departure.to_string(),
                inn,
                out,
                cancelled,
                stamp
            ])?;
            rg.execute(params![id, guest])?;
            if n % every == 0 {
                sample.push(id);
            }
        }
    }
    // The rows went in around the store: count what each night sold and the bookings made
    // each day, as the store keeps them.
    innkeep::store::nights_sold::rebuild(&tx)
        .and_then(|()| innkeep::store::bookings_made::rebuild(&tx))
        .map_err(|e| rusqlite::Error::UserFunctionError(e.to_string().into()))?;
    tx.commit()?;
    conn.execute_batch("PRAGMA optimize; PRAGMA wal_checkpoint(TRUNCATE);")?;
    Ok(Dataset {
        room_types,
        guests: guest_ids,
        first_arrival,
        last_names,
        sample,
    })
}
