//! `innkeep doctor`'s checks of the running totals kept by every write of a reservation
//! against a fresh count of the reservations: the nights sold (`nights_sold`, read by the
//! occupancy report and the day close) and the bookings made (`bookings_made`, read by the
//! bookings report); and `--recount`, which counts them again.

use super::admin::with_services;
use super::doctor::{Check, attention, ok};
use crate::config::Loaded;
use crate::domain::money::format_amount;
use crate::store::nights_sold::Difference;

/// `n` and `thing`, with an `s` unless `n` is 1.
fn plural(n: i64, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

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
             ({first}{night}: the totals say {} sold for {}, the reservations {} for {}), so \
             the occupancy report and the day close show wrong figures for them (days already \
             closed keep their certificates). Run `innkeep doctor --recount` to put them right \
             from the reservations (safe while innkeep runs).",
            off.len(),
            if off.len() == 1 { "" } else { "s" },
            plural(kept.0, "room"),
            format_amount(kept.1),
            plural(counted.0, "room"),
            format_amount(counted.1),
        ),
    )
}

/// All bookings made agree, or where they are off and what to do.
pub fn bookings(off: &[crate::store::bookings_made::Difference]) -> Check {
    let Some((day, source, site, kept, fresh)) = off.first() else {
        return ok(
            "bookings made",
            "The running totals of bookings made agree with the reservations.",
        );
    };
    const FIGURES: [&str; 6] = [
        "bookings",
        "cancelled",
        "not shown",
        "nights",
        "room revenue",
        "days of lead time",
    ];
    let i = (0..6).find(|&i| kept[i] != fresh[i]).unwrap_or(0);
    let figure = |n: i64| {
        if i == 4 {
            format_amount(n)
        } else {
            n.to_string()
        }
    };
    let through = if site.is_empty() {
        String::new()
    } else {
        format!(" through {site}")
    };
    let first = if off.len() == 1 { "" } else { "the first, " };
    attention(
        "bookings made",
        format!(
            "The running totals of bookings made disagree with the reservations in {} \
             ({first}{day}, source {source}{through}, {}: the totals say {}, the reservations \
             {}), so the bookings report shows wrong figures there. Run `innkeep doctor \
             --recount` to put them right from the reservations (safe while innkeep runs).",
            plural(off.len() as i64, "place"),
            FIGURES[i],
            figure(kept[i]),
            figure(fresh[i]),
        ),
    )
}

/// Puts the running totals right where they disagree, and says what it did (or why it
/// could not, as a check that needs attention).
pub fn recount(l: &Loaded) -> Check {
    let done = crate::compliance::Compliance::configured(&l.config.compliance).and_then(|c| {
        with_services(l, c, async |svc, p| {
            crate::service::doctor::recount(svc, p).await
        })
    });
    match done {
        Ok((0, 0)) => ok(
            "recount",
            "The running totals already agreed with the reservations; nothing was changed.",
        ),
        Ok((nights, bookings)) => {
            let mut off = Vec::new();
            if nights > 0 {
                off.push(format!("{} sold", plural(nights as i64, "night")));
            }
            if bookings > 0 {
                off.push(format!(
                    "{} of bookings made",
                    plural(bookings as i64, "place")
                ));
            }
            let verb = if nights + bookings == 1 {
                "was"
            } else {
                "were"
            };
            ok(
                "recount",
                format!(
                    "Put the running totals right from the reservations: {} {verb} off.",
                    off.join(" and ")
                ),
            )
        }
        Err(why) => attention(
            "recount",
            format!("The running totals could not be counted again: {why}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bookings_off_need_attention_and_name_the_figure() {
        assert!(bookings(&[]).ok);
        let revenue = (
            "2026-12-03".to_string(),
            "ota".to_string(),
            "Booking.com".to_string(),
            [2, 0, 0, 4, 40000, 10],
            [2, 0, 0, 4, 51000, 10],
        );
        let c = bookings(std::slice::from_ref(&revenue));
        assert!(!c.ok);
        assert!(
            c.message.contains(
                "in 1 place (2026-12-03, source ota through Booking.com, room revenue: the \
                 totals say 400.00, the reservations 510.00)"
            ),
            "{}",
            c.message
        );
        let missing = (
            "2026-12-04".to_string(),
            "direct".to_string(),
            String::new(),
            [0; 6],
            [1, 1, 0, 2, 9000, 3],
        );
        let c = bookings(&[missing, revenue]);
        assert!(
            c.message.contains(
                "in 2 places (the first, 2026-12-04, source direct, bookings: the totals say \
                 0, the reservations 1)"
            ) && c.message.contains("--recount"),
            "{}",
            c.message
        );
    }

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
