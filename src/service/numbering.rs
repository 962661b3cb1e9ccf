//! Invoice numbering after a restore (issue 17). A backup can be older than the last invoice:
//! the invoices issued after it exist on paper and at the tax authority, but not in the
//! restored database, which would issue their numbers again. So a restore holds issuing
//! (409 `numbering_unconfirmed`) until an admin confirms the next number of every series,
//! looking at the last paper invoice; numbers only go forward.

use crate::db::Db;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::service::Services;
use crate::store;

/// Where numbering stands: the hold (since, reason) and each series' last number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// Set after a restore until confirmed.
    pub hold: Option<(String, String)>,
    /// Every series with the last number this database knows it issued.
    pub series: Vec<(String, i64)>,
}

/// The refusal while issuing is held.
pub fn unconfirmed(since: &str) -> AppError {
    crate::refusal::Refusal::NumberingUnconfirmed {
        since: since.to_string(),
    }
    .into()
}

/// Where numbering stands.
pub async fn standing(svc: &Services, p: &Principal) -> AppResult<Standing> {
    p.require(Scope::Admin)?;
    svc.db()
        .read(|c| {
            Ok(Standing {
                hold: store::numbering::hold(c)?,
                series: store::numbering::series(c)?,
            })
        })
        .await
}

/// Holds issuing and gives the event feed a new identity: what a restore does to the
/// restored database before anything else opens it.
pub async fn hold_after_restore(db: &Db, reason: String) -> AppResult<()> {
    let since = db.clock().now_text();
    db.write(move |tx| {
        store::numbering::set_hold(tx, &since, &reason)?;
        store::events::set_feed_id(tx, &crate::ids::new("feed"))
    })
    .await
}

/// Confirms the next number of every series (`next`: series and the number the next invoice
/// of it gets) and lifts the hold. Every series the database knows must be named; a number
/// at or below one already issued is refused, as is confirming when nothing is held.
pub async fn confirm(
    svc: &Services,
    p: &Principal,
    next: Vec<(String, i64)>,
) -> AppResult<Standing> {
    p.require(Scope::Admin)?;
    svc.db()
        .write(move |tx| {
            let Some((since, _)) = store::numbering::hold(tx)? else {
                return Err(AppError::conflict(
                    "not_held",
                    "Invoice numbering is not on hold; there is nothing to confirm.",
                ));
            };
            let known = store::numbering::series(tx)?;
            crate::service::fail_on(check(&known, &next))?;
            for (series, n) in &next {
                store::numbering::set_last(tx, series, n - 1)?;
            }
            store::numbering::release(tx)?;
            tracing::info!(%since, ?next, "invoice numbering confirmed after a restore");
            Ok(Standing {
                hold: None,
                series: store::numbering::series(tx)?,
            })
        })
        .await
}

/// What is wrong with confirming `next` against the `known` last numbers.
fn check(known: &[(String, i64)], next: &[(String, i64)]) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (series, last) in known {
        if !next.iter().any(|(s, _)| s == series) {
            errs.push(
                FieldError::new(
                    series.clone(),
                    "required",
                    format!("is required: its last number here is {last}; give the next one"),
                )
                .said(
                    "problem-next-number",
                    vec![("last", crate::domain::said::Value::Num(*last))],
                ),
            );
        }
    }
    for (i, (series, n)) in next.iter().enumerate() {
        let last = known.iter().find(|(s, _)| s == series).map_or(0, |k| k.1);
        if next[..i].iter().any(|(s, _)| s == series) {
            errs.push(FieldError::new(
                series.clone(),
                "duplicate",
                "is given twice",
            ));
        } else if *n <= last {
            errs.push(FieldError::new(
                series.clone(),
                "already_issued",
                format!(
                    "must be at least {}: number {last} was already issued",
                    last + 1
                ),
            ));
        } else if *n > 999_999 {
            errs.push(
                FieldError::new(
                    series.clone(),
                    "out_of_range",
                    "must be between 1 and 999999",
                )
                .said(
                    "rule-out_of_range",
                    vec![
                        ("n1", crate::domain::said::Value::Num(1)),
                        ("n2", crate::domain::said::Value::Num(999_999)),
                    ],
                ),
            );
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn every_series_is_confirmed_and_numbers_only_go_forward() {
        let known = vec![("2026".to_string(), 41)];
        assert!(check(&known, &[("2026".into(), 42)]).is_empty());
        assert!(check(&known, &[("2026".into(), 60), ("B-2026".into(), 1)]).is_empty());
        let back = check(&known, &[("2026".into(), 41)]);
        assert_eq!(back[0].code, "already_issued");
        let missing = check(&known, &[("B-2026".into(), 5)]);
        assert_eq!(
            (missing[0].field.as_str(), missing[0].code),
            ("2026", "required")
        );
        let twice = check(&known, &[("2026".into(), 50), ("2026".into(), 51)]);
        assert_eq!(twice[0].code, "duplicate");
    }
}
