//! `innkeep doctor`'s check of the running totals of nights sold (`nights_sold`, kept by
//! every write of a reservation and read by the occupancy report and the day close)
//! against a fresh count of the reservations, and `--recount`, which counts them again.

use super::admin::with_services;
use super::doctor::{Check, attention, ok};
use crate::config::Loaded;
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
    attention(
        "nights sold",
        format!(
            "The running totals of nights sold disagree with the reservations on {} night{} \
             ({first}{night}: kept {} rooms sold for {}, counted {} for {}; amounts in cents); \
             the occupancy report and the day close read them. Run `innkeep doctor \
             --recount` to count them again from the reservations (safe while innkeep runs).",
            off.len(),
            if off.len() == 1 { "" } else { "s" },
            kept.0,
            kept.1,
            counted.0,
            counted.1,
        ),
    )
}

/// Counts the nights sold again where they disagree, and says what it did.
pub fn recount(l: &Loaded) -> Result<Check, String> {
    let c = crate::compliance::Compliance::configured(&l.config.compliance)?;
    let off = with_services(l, c, async |svc, _| {
        crate::service::doctor::recount_nights_sold(svc).await
    })?;
    Ok(ok(
        "recount",
        match off {
            0 => "Nothing to count again: the nights sold already agreed.".to_string(),
            1 => {
                "Counted the nights sold again from the reservations: 1 night was off.".to_string()
            }
            n => {
                format!("Counted the nights sold again from the reservations: {n} nights were off.")
            }
        },
    ))
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
        for part in [
            "on 2 nights (the first, 2026-12-03: kept 4 rooms sold for 40000, counted 5 for 51000",
            "--recount",
        ] {
            assert!(c.message.contains(part), "{part}: {}", c.message);
        }
    }
}
