//! `innkeep doctor`: is this innkeep well? Disk space, the data directory's permissions,
//! the clock, the last backup, failed jobs, overdue submissions, the fiscal certificate,
//! disabled webhook endpoints, a numbering hold, the day close, the compliance calendar and
//! the running totals of nights sold and of bookings made, each in plain words with what to
//! do; exit code 1 when anything needs attention, `--json` for monitoring, `--recount` to
//! put the running totals right first.

use chrono::{DateTime, Datelike, Utc};
use serde::Serialize;

use super::admin::with_services;
use super::doctor_files;
use crate::config::Loaded;
use crate::service::doctor::Facts;

/// A scheduled backup older than this is late.
const BACKUP_LATE_HOURS: i64 = 36;
/// A certificate that expires within this many days needs renewing now.
const CERTIFICATE_DAYS: i64 = 30;
/// How far the clock may be behind the newest recorded change.
const CLOCK_SLACK_MINUTES: i64 = 5;

/// One check's outcome.
#[derive(Debug, Serialize)]
pub struct Check {
    /// Its name, such as `backups`.
    pub check: &'static str,
    /// Whether all is well.
    pub ok: bool,
    /// What was found and, when not ok, what to do.
    pub message: String,
}

pub(super) fn ok(check: &'static str, message: impl Into<String>) -> Check {
    Check {
        check,
        ok: true,
        message: message.into(),
    }
}

pub(super) fn attention(check: &'static str, message: impl Into<String>) -> Check {
    Check {
        check,
        ok: false,
        message: message.into(),
    }
}

/// Runs `innkeep doctor` (with `recount`, after putting the nights sold right); an error
/// when something needs attention (after printing all).
pub fn run(l: &Loaded, json: bool, recount: bool) -> Result<(), String> {
    let dir = &l.data_dir;
    let mut checks = Vec::new();
    if !dir.join(crate::db::DB_FILE).exists() {
        checks.push(attention(
            "database",
            format!(
                "There is no database in {}: innkeep has not been set up here (run \
                 `innkeep setup`), or --data-dir names the wrong directory.",
                dir.display()
            ),
        ));
    } else {
        checks.push(doctor_files::disk(dir));
        checks.push(doctor_files::permissions(dir));
        if recount {
            checks.push(super::doctor_totals::recount(l));
        }
        let c = crate::compliance::Compliance::configured(&l.config.compliance)?;
        let facts = with_services(l, c, async |svc, p| {
            crate::service::doctor::facts(svc, p).await
        })?;
        checks.extend(judge(l, &facts, Utc::now()));
    }
    if let Some(mail) = &l.config.mail {
        checks.push(match crate::mail::check(mail) {
            Ok(()) => ok(
                "mail",
                format!("The mail relay {}:{} answers.", mail.host, mail.port),
            ),
            Err(why) => attention(
                "mail",
                format!("{why}: guests' messages wait in the outbox until it answers."),
            ),
        });
    }
    let needing = checks.iter().filter(|c| !c.ok).count();
    if json {
        println!(
            "{}",
            serde_json::json!({"ok": needing == 0, "data_dir": dir, "checks": checks})
        );
    } else {
        println!("innkeep doctor: {}", dir.display());
        for c in &checks {
            let mark = if c.ok { "ok       " } else { "ATTENTION" };
            println!("  {mark}  {:<13} {}", c.check, c.message);
        }
    }
    match needing {
        0 => {
            if !json {
                println!("All is well.");
            }
            Ok(())
        }
        1 => Err("1 thing needs attention.".into()),
        n => Err(format!("{n} things need attention.")),
    }
}

/// The checks made from the database's facts, at `now`.
pub fn judge(l: &Loaded, f: &Facts, now: DateTime<Utc>) -> Vec<Check> {
    vec![
        clock(f.newest_event_at.as_deref(), now),
        backups(l, f.last_backup_age),
        jobs(f),
        submissions(f),
        certificate(f.certificate.as_ref(), now),
        webhooks(f),
        numbering(f.numbering_held),
        tables(f.tables.as_ref(), now),
        super::doctor_einvoice::einvoices(&f.einvoice, &f.einvoices),
        super::doctor_days::days(f.days.as_ref()),
        super::doctor_days::calendar(&f.duties),
        super::doctor_totals::nights(&f.nights_off),
        super::doctor_totals::bookings(&f.bookings_off),
    ]
}

/// Fetched code tables are loaded and not older than three days (they are fetched daily).
fn tables(t: Option<&(String, usize, usize, Option<String>)>, now: DateTime<Utc>) -> Check {
    let Some((scheme, kept, loaded, oldest)) = t else {
        return ok("tables", "No code tables are fetched from an authority.");
    };
    let age = oldest
        .as_deref()
        .and_then(|at| DateTime::parse_from_rfc3339(at).ok())
        .map(|at| (now - at.with_timezone(&Utc)).num_hours());
    match age {
        Some(hours) if loaded >= kept && hours <= 72 => ok(
            "tables",
            format!("The {loaded} code tables of {scheme} were fetched {hours} hours ago at most."),
        ),
        _ if loaded < kept => attention(
            "tables",
            format!(
                "Only {loaded} of the {kept} code tables of {scheme} are loaded, so check-ins \
                 cannot be checked: innkeep fetches them while it runs and is online; check the \
                 internet connection and the account in [compliance.registration], or import \
                 them with `innkeep compliance import-table`."
            ),
        ),
        _ => attention(
            "tables",
            format!(
                "The code tables of {scheme} were last fetched more than three days ago: check \
                 the internet connection and the account in [compliance.registration]."
            ),
        ),
    }
}

fn clock(newest: Option<&str>, now: DateTime<Utc>) -> Check {
    let newest = newest
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc));
    match newest {
        Some(t) if now + chrono::Duration::minutes(CLOCK_SLACK_MINUTES) < t => attention(
            "clock",
            format!(
                "This PC's clock says {}, but the last change was recorded at {}: the clock \
                 is behind. Set the date and time (and turn on automatic time), or new \
                 bookings and invoices get wrong dates.",
                crate::clock::format_instant(now),
                crate::clock::format_instant(t)
            ),
        ),
        _ if now.year() < 2025 => attention(
            "clock",
            format!(
                "This PC's clock says {}: set the date and time.",
                crate::clock::format_instant(now)
            ),
        ),
        _ => ok(
            "clock",
            format!(
                "{} (UTC), not behind the last recorded change.",
                crate::clock::format_instant(now)
            ),
        ),
    }
}

fn backups(l: &Loaded, age: Option<i64>) -> Check {
    let Some(dir) = &l.config.backup.dir else {
        return attention(
            "backups",
            "No daily backup is set up: set [backup] dir to a USB disk or a NAS (the book's \
             \"Backup\", at /docs/book/data.html), or take one now with `innkeep backup FILE`.",
        );
    };
    match age {
        None => attention(
            "backups",
            format!(
                "No daily backup has finished yet in {} (the first is taken at {}); check that \
                 the server runs and the directory is there.",
                dir.display(),
                l.config.backup.time
            ),
        ),
        Some(secs) if secs > BACKUP_LATE_HOURS * 3600 => attention(
            "backups",
            format!(
                "The last good backup is {} hours old: check that {} is there and has room, \
                 and look at `innkeep jobs list --status failed`.",
                secs / 3600,
                dir.display()
            ),
        ),
        Some(secs) => ok(
            "backups",
            format!(
                "The last good backup was {} hours ago, in {}.",
                secs / 3600,
                dir.display()
            ),
        ),
    }
}

fn jobs(f: &Facts) -> Check {
    if f.failed_jobs.is_empty() {
        return ok("jobs", "No job has given up.");
    }
    let shown: Vec<String> = f
        .failed_jobs
        .iter()
        .take(3)
        .map(|(id, kind, subject, err)| {
            format!(
                "{id} {kind} {subject}: {}",
                err.as_deref().unwrap_or("no reason kept")
            )
        })
        .collect();
    attention(
        "jobs",
        format!(
            "{} jobs gave up ({}{}). Fix the cause, then `innkeep jobs retry`.",
            f.failed_jobs.len(),
            shown.join("; "),
            if f.failed_jobs.len() > 3 { "; …" } else { "" }
        ),
    )
}

fn submissions(f: &Facts) -> Check {
    if f.overdue.is_empty() {
        return ok("submissions", "Nothing is past its legal deadline.");
    }
    let first = &f.overdue[0];
    attention(
        "submissions",
        format!(
            "{} submissions to the authorities are past their legal deadline (the oldest: {} \
             {}, due {}). See the compliance centre, or `innkeep submissions list`.",
            f.overdue.len(),
            first.kind.as_str(),
            first.id,
            first.due_at.0
        ),
    )
}

fn certificate(cert: Option<&(String, DateTime<Utc>)>, now: DateTime<Utc>) -> Check {
    let Some((subject, until)) = cert else {
        return ok("certificate", "No fiscal certificate is in use.");
    };
    let days = (*until - now).num_days();
    if *until < now {
        attention(
            "certificate",
            format!(
                "The fiscal certificate of {subject} expired on {}: receipts cannot be fiscalised. Install the new one.",
                until.date_naive()
            ),
        )
    } else if days < CERTIFICATE_DAYS {
        attention(
            "certificate",
            format!(
                "The fiscal certificate of {subject} expires in {days} days ({}): order the new one now.",
                until.date_naive()
            ),
        )
    } else {
        ok(
            "certificate",
            format!(
                "The fiscal certificate of {subject} is valid until {}.",
                until.date_naive()
            ),
        )
    }
}

fn webhooks(f: &Facts) -> Check {
    if f.disabled_webhooks.is_empty() {
        return ok("webhooks", "No webhook endpoint is switched off.");
    }
    let shown: Vec<String> = f
        .disabled_webhooks
        .iter()
        .map(|(url, why)| {
            format!(
                "{url} ({})",
                why.as_deref().unwrap_or("switched off by hand")
            )
        })
        .collect();
    attention(
        "webhooks",
        format!(
            "{} webhook endpoints are switched off and receive nothing: {}. Switch them on \
             again on the Administration pages once they answer.",
            shown.len(),
            shown.join("; ")
        ),
    )
}

fn numbering(held: bool) -> Check {
    if held {
        attention(
            "numbering",
            "Invoices are on hold since a restore: compare `innkeep numbering show` with the \
             last invoices on paper, then `innkeep numbering confirm SERIES=NEXT`.",
        )
    } else {
        ok("numbering", "Invoice numbering is not on hold.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn a_clock_behind_the_last_change_needs_attention() {
        let now = at("2026-11-25T10:00:00Z");
        assert!(
            clock(Some("2026-11-25T10:04:00Z"), now).ok,
            "within the slack"
        );
        let behind = clock(Some("2026-11-25T12:00:00Z"), now);
        assert!(
            !behind.ok && behind.message.contains("behind"),
            "{}",
            behind.message
        );
        assert!(!clock(None, at("2001-01-01T00:00:00Z")).ok);
        assert!(clock(None, now).ok);
    }

    #[test]
    fn fetched_tables_missing_or_stale_need_attention() {
        let now = at("2026-11-25T10:00:00Z");
        let t =
            |loaded: usize, at: &str| ("hr-evisitor".to_string(), 7, loaded, Some(at.to_string()));
        assert!(tables(None, now).ok);
        assert!(tables(Some(&t(7, "2026-11-25T04:00:00Z")), now).ok);
        let stale = tables(Some(&t(7, "2026-11-20T04:00:00Z")), now);
        assert!(
            !stale.ok && stale.message.contains("three days"),
            "{}",
            stale.message
        );
        let missing = tables(Some(&t(3, "2026-11-25T04:00:00Z")), now);
        assert!(
            !missing.ok && missing.message.contains("Only 3 of the 7"),
            "{}",
            missing.message
        );
    }

    #[test]
    fn a_certificate_close_to_expiry_or_expired_needs_attention() {
        let now = at("2026-11-25T10:00:00Z");
        let cert = |s: &str| ("Hotel Adria".to_string(), at(s));
        assert!(certificate(Some(&cert("2027-06-01T00:00:00Z")), now).ok);
        let soon = certificate(Some(&cert("2026-12-10T00:00:00Z")), now);
        assert!(
            !soon.ok && soon.message.contains("expires in 14 days"),
            "{}",
            soon.message
        );
        let gone = certificate(Some(&cert("2026-11-01T00:00:00Z")), now);
        assert!(
            !gone.ok && gone.message.contains("expired on 2026-11-01"),
            "{}",
            gone.message
        );
        assert!(certificate(None, now).ok);
    }
}
