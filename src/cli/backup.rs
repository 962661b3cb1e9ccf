//! `innkeep backup FILE` and `innkeep restore FILE`: the operator's
//! copy of everything, putting it back on this or a new PC, and confirming the invoice
//! numbers after a restore.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::backup::crypt::{Key, Seal};
use crate::backup::{self, Manifest, Sources};
use crate::config::Loaded;

/// The passphrase of an encrypted backup: from a file (its first line) or from the
/// environment (`INNKEEP_BACKUP_PASSPHRASE`), never on the command line, where other users
/// of the PC could read it.
#[derive(Debug, clap::Args)]
pub struct Secret {
    /// Encrypt (or open) with the passphrase on the first line of FILE.
    #[arg(long = "passphrase-file", value_name = "FILE")]
    passphrase_file: Option<PathBuf>,
}

impl Secret {
    fn passphrase(&self) -> Result<Option<String>, String> {
        if let Some(f) = &self.passphrase_file {
            return backup::crypt::passphrase_from(f).map(Some);
        }
        Ok(std::env::var("INNKEEP_BACKUP_PASSPHRASE")
            .ok()
            .filter(|p| !p.is_empty()))
    }

    /// How `innkeep backup` seals: recipients, else a passphrase, else not at all.
    pub fn seal(&self, recipients: &[String]) -> Result<Option<Seal>, String> {
        if !recipients.is_empty() {
            return Ok(Some(Seal::Recipients(recipients.to_vec())));
        }
        Ok(self.passphrase()?.map(Seal::Passphrase))
    }

    /// What `innkeep restore` opens a sealed backup with.
    pub fn key(&self, identity: Option<PathBuf>) -> Result<Option<Key>, String> {
        if let Some(i) = identity {
            return Ok(Some(Key::IdentityFile(i)));
        }
        Ok(self.passphrase()?.map(Key::Passphrase))
    }
}

/// Shows the snapshot's progress on a terminal as a bar, otherwise as a few plain lines.
fn progress() -> impl FnMut(u64, u64) {
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(0);
        b.set_style(
            indicatif::ProgressStyle::with_template("copying the database {bar:40} {percent}%")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let mut said = -1;
    move |done, all| match &bar {
        Some(b) => {
            b.set_length(all);
            b.set_position(done);
            if done == all {
                b.finish_and_clear();
            }
        }
        None => {
            let quarter = (done * 4).checked_div(all).unwrap_or(4) as i64;
            if quarter > said {
                said = quarter;
                eprintln!("copying the database: {}%", quarter * 25);
            }
        }
    }
}

fn summary(m: &Manifest) -> String {
    let rows = |t: &str| m.rows.get(t).copied().unwrap_or(0);
    format!(
        "{} guests, {} reservations, {} invoices (the last {}), {} other files",
        rows("guests"),
        rows("reservations"),
        rows("invoices"),
        m.last_invoice.as_deref().unwrap_or("none yet"),
        m.files.len() - 1
    )
}

/// `innkeep backup FILE`.
pub fn backup(l: &Loaded, file: &Path, seal: Option<&Seal>, json: bool) -> Result<(), String> {
    let src = Sources {
        data_dir: &l.data_dir,
        config: l.file.as_deref(),
        certificates: l.config.compliance.fiscal.files(),
    };
    let m = backup::write(&src, file, seal, &mut progress())?;
    let size = std::fs::metadata(file).map(|x| x.len()).unwrap_or(0);
    if json {
        println!(
            "{}",
            json!({"file": file, "bytes": size, "verified": true, "encrypted": seal.is_some(), "manifest": m})
        );
    } else {
        println!(
            "Backup written to {} ({:.1} MB): {}.",
            file.display(),
            size as f64 / 1e6,
            summary(&m)
        );
        println!(
            "Verified: read back, every file's digest matches, the database passes SQLite's \
             integrity check and has the same rows."
        );
        match seal {
            Some(Seal::Passphrase(_)) => println!(
                "Encrypted with the passphrase (age); without it the backup cannot be restored."
            ),
            Some(Seal::Recipients(_)) => {
                println!("Encrypted to the recipients given (age); their identity file opens it.")
            }
            None => println!(
                "Not encrypted: it holds guests' personal data; keep it somewhere locked, or \
                 use --passphrase-file next time."
            ),
        }
    }
    Ok(())
}

/// `innkeep restore FILE [--database DB]`: verify, keep the current data directory aside,
/// put the backup in its place (with DB, a replicated database, as its database), new feed,
/// invoices on hold.
pub fn restore(
    l: &Loaded,
    file: &Path,
    key: Option<&Key>,
    database: Option<&Path>,
) -> Result<(), String> {
    let dir = &l.data_dir;
    let replica = database
        .map(super::restore_db::check)
        .transpose()
        .map_err(|e| format!("{e}. Nothing was changed."))?;
    // Run as root on an installed innkeep: what is restored goes back to the service's user.
    let owner = super::owner::other_owner(dir);
    let lock = super::serve::lock(dir)?;
    // Made by the unpacking itself, private, and nothing in it can lead outside it.
    let staging = backup::name_beside(dir);
    let reason = |m: &Manifest| match (database, &replica) {
        (Some(db), Some(r)) => format!(
            "restored from the replicated database {} (its last write {}) with the keys and configuration of {}",
            db.display(),
            r.newest_at.as_deref().unwrap_or("unknown"),
            file.display()
        ),
        _ => format!(
            "restored from {} (a backup of {}, its last invoice {})",
            file.display(),
            m.created_at,
            m.last_invoice.as_deref().unwrap_or("none")
        ),
    };
    let staged = super::restore_stage::prepare(file, key, database, &staging, owner, reason)
        .map_err(|e| format!("{e}. Nothing was changed."))?;
    drop(lock);
    let aside = super::restore_stage::swap(&staging, dir).map_err(|e| format!("{e}."))?;
    let (m, series) = (staged.manifest, staged.series);
    match (database, &replica) {
        (Some(db), Some(r)) => println!(
            "Restored the replicated database {} ({} invoices, events up to {}, the last at {}) \
             into {}, with the signing keys and settings of {}.",
            db.display(),
            r.invoices,
            r.newest_event,
            r.newest_at.as_deref().unwrap_or("-"),
            dir.display(),
            file.display()
        ),
        _ => println!(
            "Restored {} into {}: {}.",
            file.display(),
            dir.display(),
            summary(&m)
        ),
    }
    if let Some(a) = aside {
        println!(
            "The data directory as it was is kept, untouched, in {}.",
            a.display()
        );
    }
    if dir.join("from-backup").exists() {
        println!(
            "The configuration and certificates from the backup are in {}; compare them with \
             this machine's before starting.",
            dir.join("from-backup").display()
        );
    }
    println!("The event feed has a new feed_id: integrations resynchronise by themselves.");
    println!(
        "Invoices are ON HOLD: invoices issued after this copy was made may exist on paper \
         and at the tax authority. Look at the last invoice on paper for each series (or at the \
         group's hub: innkeep numbering confirm --from-hub) and confirm the next number:"
    );
    for (s, last) in &series {
        println!("  series {s}: the last number here is {last}");
    }
    println!(
        "  innkeep numbering confirm SERIES=NEXT ...   (for example {})",
        example(&series)
    );
    Ok(())
}

fn example(series: &[(String, i64)]) -> String {
    match series.first() {
        Some((s, last)) => format!("{s}={}", last + 1),
        None => format!("{}=1", chrono::Utc::now().format("%Y")),
    }
}
