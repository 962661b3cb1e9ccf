//! Nightly availability arithmetic.
//!
//! Given the stays already holding a room type and the rooms in service, these functions
//! say how many rooms each night has left, and which nights a new stay could not fit. The
//! service layer runs them inside the write transaction, so the answer cannot go stale.

use chrono::NaiveDate;

use super::stay::StayDates;

/// How many of `booked` occupy each night of `window`, night by night.
pub fn nightly_booked(window: &StayDates, booked: &[StayDates]) -> Vec<(NaiveDate, u32)> {
    let n = window.nights() as usize;
    // Difference array over the window's nights: +1 where a stay starts, -1 where it ends.
    let mut diff = vec![0i64; n + 1];
    for stay in booked.iter().filter(|s| s.overlaps(window)) {
        let start = (stay.arrival().max(window.arrival()) - window.arrival()).num_days() as usize;
        let end = (stay.departure().min(window.departure()) - window.arrival()).num_days() as usize;
        diff[start] += 1;
        diff[end] -= 1;
    }
    let mut running = 0i64;
    window
        .each_night()
        .zip(diff)
        .map(|(night, d)| {
            running += d;
            (night, running as u32)
        })
        .collect()
}

/// The nights of `stay` on which one more booking would exceed `capacity` rooms.
pub fn full_nights(stay: &StayDates, booked: &[StayDates], capacity: u32) -> Vec<NaiveDate> {
    nightly_booked(stay, booked)
        .into_iter()
        .filter(|(_, count)| *count >= capacity)
        .map(|(night, _)| night)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn day(n: i64) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, 1).unwrap() + chrono::Duration::days(n)
    }

    fn stay(a: i64, len: i64) -> StayDates {
        StayDates::new(day(a), day(a + len)).unwrap()
    }

    #[test]
    fn counts_only_the_nights_each_stay_holds() {
        let window = stay(0, 4);
        let counts = nightly_booked(&window, &[stay(0, 2), stay(1, 1), stay(3, 5), stay(4, 2)]);
        let only: Vec<u32> = counts.iter().map(|(_, c)| *c).collect();
        assert_eq!(only, vec![1, 2, 0, 1]);
    }

    #[test]
    fn full_nights_name_the_blocked_nights() {
        let booked = [stay(1, 1)];
        assert_eq!(full_nights(&stay(0, 3), &booked, 1), vec![day(1)]);
        assert!(full_nights(&stay(0, 3), &booked, 2).is_empty());
        assert_eq!(full_nights(&stay(0, 2), &[], 0).len(), 2);
    }

    proptest! {
        #[test]
        fn sweep_matches_counting_night_by_night(
            w in (0i64..30, 1i64..30),
            stays in proptest::collection::vec((0i64..60, 1i64..20), 0..40),
        ) {
            let window = stay(w.0, w.1);
            let booked: Vec<StayDates> = stays.iter().map(|(a, l)| stay(*a, *l)).collect();
            for (night, count) in nightly_booked(&window, &booked) {
                let naive = booked.iter().filter(|s| s.has_night(night)).count() as u32;
                prop_assert_eq!(count, naive);
            }
        }

        #[test]
        fn greedy_admission_never_overbooks(
            capacity in 0u32..4,
            requests in proptest::collection::vec((0i64..30, 1i64..10), 0..60),
        ) {
            // Admit requests one at a time, as the writer does; no night may exceed capacity.
            let mut admitted: Vec<StayDates> = Vec::new();
            for (a, l) in requests {
                let s = stay(a, l);
                if full_nights(&s, &admitted, capacity).is_empty() {
                    admitted.push(s);
                }
            }
            let all = stay(0, 45);
            for (_, count) in nightly_booked(&all, &admitted) {
                prop_assert!(count <= capacity);
            }
        }
    }
}
