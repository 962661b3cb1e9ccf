//! Italy's monthly tourist movement (ISTAT model C/59, "movimento dei clienti negli esercizi
//! ricettivi"): for each place of residence (a foreign country; for Italians, the
//! province), the guests who arrived in the month and the nights they spent in it
//! ("presenze"); and day by day the arrivals, departures, guests present and rooms
//! occupied. Every member of a party counts, as the form counts persons, not bookings.
//!
//! Definitions (ISTAT's): an arrival is a guest checking in; a night ("presenza") is a guest
//! staying a night; residence, not nationality, sorts them (a guest without a recorded
//! residence is counted under their nationality, and without either under "unknown", which
//! the report shows so that it can be fixed before filing).

use std::collections::BTreeMap;

use chrono::NaiveDate;

/// Where a guest lives, as the form sorts them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Residence {
    /// In Italy, in this province (its two-letter sigla, `BO`), when known.
    Italy(Option<String>),
    /// Abroad, in this country (ISO 3166-1 alpha-2).
    Abroad(String),
    /// Not recorded.
    Unknown,
}

impl Residence {
    /// From a guest's address country and region, else their nationality.
    pub fn of(country: Option<&str>, region: Option<&str>, nationality: Option<&str>) -> Residence {
        let province = || {
            region
                .map(|r| r.trim().to_uppercase())
                .filter(|r| r.len() == 2 && r.chars().all(|c| c.is_ascii_alphabetic()))
        };
        match country.or(nationality).map(str::to_uppercase) {
            Some(c) if c == "IT" => Residence::Italy(country.and(province())),
            Some(c) if c.len() == 2 => Residence::Abroad(c),
            _ => Residence::Unknown,
        }
    }

    /// `IT-BO`, `IT` (province unknown), `DE`, or `unknown`.
    pub fn code(&self) -> String {
        match self {
            Residence::Italy(Some(p)) => format!("IT-{p}"),
            Residence::Italy(None) => "IT".into(),
            Residence::Abroad(c) => c.clone(),
            Residence::Unknown => "unknown".into(),
        }
    }
}

/// A guest's stay as the form counts it: arrival, departure, the room, where they live.
#[derive(Debug, Clone)]
pub struct GuestStay {
    /// Arrival.
    pub arrival: NaiveDate,
    /// Departure.
    pub departure: NaiveDate,
    /// The room (rooms occupied count each room once a night).
    pub room: Option<String>,
    /// Where the guest lives.
    pub residence: Residence,
}

/// A day of the month.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Day {
    /// Guests who arrived.
    pub arrivals: i64,
    /// Guests who left.
    pub departures: i64,
    /// Guests who stayed the night.
    pub present: i64,
    /// Rooms occupied that night.
    pub rooms: i64,
}

/// The month's movement: by residence (arrivals, nights), and by day.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Movement {
    /// Residence → (arrivals, nights).
    pub by_residence: BTreeMap<Residence, (i64, i64)>,
    /// Each day of the month.
    pub days: Vec<(NaiveDate, Day)>,
}

/// The movement from `from` to `to` (exclusive) of `stays`.
pub fn movement(from: NaiveDate, to: NaiveDate, stays: &[GuestStay]) -> Movement {
    let mut days: BTreeMap<NaiveDate, (Day, std::collections::HashSet<&str>)> = from
        .iter_days()
        .take_while(|d| *d < to)
        .map(|d| (d, Default::default()))
        .collect();
    let mut by_residence: BTreeMap<Residence, (i64, i64)> = BTreeMap::new();
    for s in stays {
        let counts = by_residence.entry(s.residence.clone()).or_default();
        if let Some((day, _)) = days.get_mut(&s.arrival) {
            day.arrivals += 1;
            counts.0 += 1;
        }
        if let Some((day, _)) = days.get_mut(&s.departure) {
            day.departures += 1;
        }
        for night in s.arrival.iter_days().take_while(|n| *n < s.departure) {
            if let Some((day, rooms)) = days.get_mut(&night) {
                day.present += 1;
                counts.1 += 1;
                if let Some(r) = &s.room {
                    rooms.insert(r);
                }
            }
        }
    }
    by_residence.retain(|_, (a, n)| *a > 0 || *n > 0);
    Movement {
        by_residence,
        days: days
            .into_iter()
            .map(|(d, (mut day, rooms))| {
                day.rooms = rooms.len() as i64;
                (d, day)
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn d(n: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, n).unwrap()
    }

    #[test]
    fn residence_is_the_address_then_the_nationality() {
        assert_eq!(
            Residence::of(Some("IT"), Some("bo"), Some("DE")).code(),
            "IT-BO"
        );
        assert_eq!(Residence::of(Some("it"), Some("Emilia"), None).code(), "IT");
        assert_eq!(Residence::of(None, Some("BO"), Some("IT")).code(), "IT");
        assert_eq!(Residence::of(None, None, Some("de")).code(), "DE");
        assert_eq!(Residence::of(None, None, None).code(), "unknown");
    }

    #[test]
    fn a_stay_across_the_month_counts_its_nights_inside_it() {
        let stays = [
            GuestStay {
                arrival: d(29),
                departure: NaiveDate::from_ymd_opt(2026, 12, 2).unwrap(),
                room: Some("101".into()),
                residence: Residence::Abroad("DE".into()),
            },
            GuestStay {
                arrival: d(29),
                departure: d(30),
                room: Some("101".into()),
                residence: Residence::Italy(Some("BO".into())),
            },
        ];
        let m = movement(d(1), NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(), &stays);
        assert_eq!(m.by_residence[&Residence::Abroad("DE".into())], (1, 2));
        assert_eq!(m.by_residence[&Residence::Italy(Some("BO".into()))], (1, 1));
        let day29 = &m.days[28].1;
        assert_eq!((day29.arrivals, day29.present, day29.rooms), (2, 2, 1));
        assert_eq!(m.days[29].1.departures, 1);
    }

    proptest! {
        #[test]
        fn nights_by_residence_add_up_to_the_guests_present_each_day(
            stays in proptest::collection::vec((0u32..40, 1u32..10, 0u8..3, 0u8..4), 0..30)
        ) {
            let base = NaiveDate::from_ymd_opt(2026, 10, 20).unwrap();
            let stays: Vec<GuestStay> = stays
                .into_iter()
                .map(|(a, n, who, room)| GuestStay {
                    arrival: base + chrono::Days::new(a.into()),
                    departure: base + chrono::Days::new((a + n).into()),
                    room: Some(room.to_string()),
                    residence: match who {
                        0 => Residence::Abroad("DE".into()),
                        1 => Residence::Italy(Some("RM".into())),
                        _ => Residence::Unknown,
                    },
                })
                .collect();
            let m = movement(d(1), NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(), &stays);
            let nights: i64 = m.by_residence.values().map(|c| c.1).sum();
            let present: i64 = m.days.iter().map(|(_, x)| x.present).sum();
            let arrivals: i64 = m.by_residence.values().map(|c| c.0).sum();
            let arrived: i64 = m.days.iter().map(|(_, x)| x.arrivals).sum();
            prop_assert_eq!(nights, present);
            prop_assert_eq!(arrivals, arrived);
            prop_assert!(m.days.iter().all(|(_, x)| x.rooms <= 4 && x.rooms <= x.present));
        }
    }
}
