//! `innkeep import guests|reservations FILE.csv`: moving in from another system. The file
//! is read here (UTF-8, with or without a BOM, comma- or semicolon-separated, `--map` for
//! other column names); `service::import` checks and writes it, all or nothing.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::admin::with_services;
use crate::config::Loaded;
use crate::domain::spreadsheet::restore;
use crate::service::import::{self, Bad, Kind, Report, Row};

/// The file's rows, the bad ones already found while reading, and the columns ignored.
struct Read {
    rows: Vec<Row>,
    bad: Vec<Bad>,
    ignored: Vec<String>,
}

fn read(file: &Path, kind: Kind, map: &[String]) -> Result<Read, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let text = std::str::from_utf8(bytes).map_err(|_| {
        format!(
            "{} is not UTF-8 text; save it again as \"CSV UTF-8\"",
            file.display()
        )
    })?;
    let first = text.lines().next().unwrap_or_default();
    let delimiter = if first.matches(';').count() > first.matches(',').count() {
        b';'
    } else {
        b','
    };
    let mut renames = BTreeMap::new();
    for m in map {
        let Some((from, to)) = m.split_once('=') else {
            return Err(format!("--map {m:?}: write it as FILE_COLUMN=COLUMN"));
        };
        let to = to.trim();
        if !kind.columns().iter().any(|(c, _)| *c == to) {
            return Err(format!(
                "--map {m:?}: {to:?} is not one of the columns ({})",
                names(kind)
            ));
        }
        renames.insert(from.trim().to_string(), to.to_string());
    }
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| {
            format!(
                "{}: the first line must name the columns ({e})",
                file.display()
            )
        })?
        .iter()
        .map(|h| {
            let h = h.trim();
            renames
                .get(h)
                .cloned()
                .unwrap_or_else(|| h.to_ascii_lowercase())
        })
        .collect();
    let known = |h: &String| kind.columns().iter().any(|(c, _)| c == h);
    let missing: Vec<&str> = kind
        .required()
        .iter()
        .copied()
        .filter(|r| !headers.iter().any(|h| h == r))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{} has no column {} (it has: {}). Name them so, or use --map FILE_COLUMN=COLUMN. \
             The columns are: {}.",
            file.display(),
            missing.join(", "),
            headers.join(", "),
            names(kind)
        ));
    }
    let ignored = headers.iter().filter(|h| !known(h)).cloned().collect();
    let (mut rows, mut bad) = (Vec::new(), Vec::new());
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                bad.push(Bad {
                    line,
                    reason: format!("cannot be read: {e}"),
                });
                continue;
            }
        };
        let line = record.position().map_or(0, |p| p.line());
        if record.len() != headers.len() {
            bad.push(Bad {
                line,
                reason: format!(
                    "has {} values but the first line names {} columns",
                    record.len(),
                    headers.len()
                ),
            });
            continue;
        }
        let values = headers
            .iter()
            .zip(record.iter())
            .filter(|(h, v)| known(h) && !v.trim().is_empty())
            // What `innkeep export` neutralised for spreadsheets is taken back exactly.
            .map(|(h, v)| (h.clone(), restore(v.trim()).to_string()))
            .collect();
        rows.push(Row { line, values });
    }
    Ok(Read { rows, bad, ignored })
}

fn names(kind: Kind) -> String {
    kind.columns()
        .iter()
        .map(|(c, _)| *c)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `innkeep import`.
pub fn run(
    l: &Loaded,
    kind: Kind,
    file: &Path,
    map: &[String],
    dry_run: bool,
    json: bool,
) -> Result<(), String> {
    let read = read(file, kind, map)?;
    let total = read.rows.len();
    let done = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let bar = (!json && std::io::stderr().is_terminal()).then(|| {
        let (done, stop) = (done.clone(), stop.clone());
        std::thread::spawn(move || {
            let bar = indicatif::ProgressBar::new(total as u64);
            bar.set_message("checking");
            while !stop.load(Ordering::Relaxed) {
                bar.set_position(done.load(Ordering::Relaxed) as u64);
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            bar.finish_and_clear();
        })
    });
    if bar.is_none() && !json {
        eprintln!(
            "{}: {} rows read; checking them…",
            file.display(),
            total + read.bad.len()
        );
    }
    let check_only = dry_run || !read.bad.is_empty();
    let rows = read.rows;
    let result = with_services(l, Default::default(), async |svc, p| {
        import::run(svc, p, kind, rows, check_only, done).await
    });
    stop.store(true, Ordering::Relaxed);
    if let Some(bar) = bar {
        let _ = bar.join();
    }
    let mut report = result?;
    report.rows += read.bad.len();
    report.bad.extend(read.bad);
    report.bad.sort_by_key(|b| b.line);
    if json {
        println!(
            "{}",
            serde_json::json!({"report": report, "ignored_columns": read.ignored, "dry_run": dry_run})
        );
    } else {
        say(file, &report, &read.ignored, dry_run);
    }
    if report.bad.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} bad rows; nothing was imported.",
            report.bad.len()
        ))
    }
}

fn say(file: &Path, r: &Report, ignored: &[String], dry_run: bool) {
    let what = match r.kind {
        Kind::Guests => "guests",
        Kind::Reservations => "reservations",
    };
    if !ignored.is_empty() {
        println!(
            "Columns not imported (innkeep has no place for them): {}.",
            ignored.join(", ")
        );
    }
    if !r.bad.is_empty() {
        println!(
            "{}: {} rows, {} of them bad:",
            file.display(),
            r.rows,
            r.bad.len()
        );
        for b in &r.bad {
            println!("  line {}: {}", b.line, b.reason);
        }
        println!(
            "Nothing was imported. Correct these lines and run it again (--dry-run checks without writing)."
        );
        return;
    }
    let mut notes = Vec::new();
    if r.already_imported > 0 {
        notes.push(format!(
            "{} were imported before and are left as they are",
            r.already_imported
        ));
    }
    if r.not_confirmed > 0 {
        notes.push(format!(
            "{} are over or cancelled (their status is not confirmed) and stay in the old system",
            r.not_confirmed
        ));
    }
    let known = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    };
    if dry_run {
        println!(
            "Dry run: all {} rows are good; {} new {what} would be imported{known}. Nothing was written.",
            r.rows, r.created
        );
    } else {
        println!(
            "Imported {} new {what} from {}{known}.",
            r.created,
            file.display()
        );
    }
}
