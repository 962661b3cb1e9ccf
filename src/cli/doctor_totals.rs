//! `innkeep doctor`'s check of the running totals of nights sold (`nights_sold`, kept by
//! every write of a reservation and read by the occupancy report and the day close)
//! against a fresh count of the reservations, and `--recount`, which counts them again.

use super::admin::with_services;
use super::doctor::{Check, attention, ok};
use crate::config::Loaded;
use crate::domain::money::format_amount;
use crate::store::nights_sold::Difference;

/// All nights agree, or which are off and what to do.
pub fn nights(off: &[Difference]) -> Check {
    let Some((night, kept, counted)) = off.first() else {
        return ok(
            "nights sold",
            "The running totals of nights sold agree with the reservations.",
        );
    };
    let first = if off.len() == 1 { "" } else { "the first, " };
    let rooms = |n: i64| format!("{n} room{}", if n == 1 { "" } else { "s" });
    attention(
        "nights sold",
        format!(
            "The running totals of nights sold disagree with the reservations on {} night{} \
             ({first}{night}: the totals say {} sold for {}, the reservations {} for {}), so \
             the occupancy report and the day close show wrong figures for them (days already \
             closed keep their certificates). Run `innkeep doctor --recount` to put them right \
             from the reservations (safe while innkeep runs).",
            off.len(),
            if off.len() == 1 { "" } else { "s" },
            rooms(kept.0),
            format_amount(kept.1),
            rooms(counted.0),
            format_amount(counted.1),
        ),
    )
}

/// Puts the nights sold right where they disagree, and says what it did (or why it could
/// not, as a check that needs attention).
pub fn recount(l: &Loaded) -> Check {
    let done = crate::compliance::Compliance::configured(&l.config.compliance).and_then(|c| {
        with_services(l, c, async |svc, p| {
            crate::service::doctor::recount_nights_sold(svc, p).await
        })
    });
    match done {
        Ok(0) => ok(
            "recount",
            "The nights sold already agreed with the reservations; nothing was changed.",
        ),
        Ok(1) => ok(
            "recount",
            "Put the nights sold right from the reservations: 1 night was off.",
        ),
        Ok(n) => ok(
            "recount",
            format!("Put the nights sold right from the reservations: {n} nights were off."),
        ),
        Err(why) => attention(
            "recount",
            format!("The nights sold could not be counted again: {why}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nights_off_need_attention_and_say_what_to_do() {
        assert!(nights(&[]).ok);
        let off = vec![
            ("2026-12-03".to_string(), (4, 40000), (5, 51000)),
            ("2026-12-04".to_string(), (0, 0), (1, 11000)),
        ];
        let c = nights(&off);
        assert!(!c.ok);
        let one = nights(&off[1..]);
        assert!(
            one.message.contains(
                "on 1 night (2026-12-04: the totals say 0 rooms sold for 0.00, \
                 the reservations 1 room for 110.00)"
            ),
            "{}",
            one.message
        );
        for part in [
            "on 2 nights (the first, 2026-12-03: the totals say 4 rooms sold for 400.00, \
             the reservations 5 rooms for 510.00)",
            "--recount",
        ] {
            assert!(c.message.contains(part), "{part}: {}", c.message);
        }
    }
}
