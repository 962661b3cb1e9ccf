//! The steps of `innkeep restore` that touch files, in the order that keeps a hostile archive
//! (and the service's own user, while root restores) away from everything else: the archive
//! is unpacked and verified into a private staging directory beside the data directory,
//! laid out as a data directory there (no file may replace another), its invoices put on
//! hold, made private and given to the service's user (children first, so the staging
//! directory stays root's until the very end), and only then swapped with the data
//! directory, which is set aside and put back if the swap fails. Nothing outside the staging
//! directory changes until the swap.

use std::path::{Path, PathBuf};

use crate::backup::crypt::Key;
use crate::backup::{self, Manifest};
use crate::db::{DB_FILE, Db, SCHEMA_VERSION};
use crate::service::numbering;

/// The name the configuration and certificates are gathered under before they take
/// `from-backup/` (a name no backup member can have: the writer skips `.innkeep-*`).
const GATHER: &str = ".innkeep-from-backup";

/// A restore made ready in its staging directory.
pub struct Staged {
    /// What the backup holds.
    pub manifest: Manifest,
    /// Each invoice series and its last number, to confirm.
    pub series: Vec<(String, i64)>,
}

/// Unpacks `file` into `staging` (which must not exist) and makes it a whole data
/// directory, on hold, private and owned by `owner` when given; `reason` says where it came
/// from (given the manifest). On failure the staging directory is removed.
pub fn prepare(
    file: &Path,
    key: Option<&Key>,
    database: Option<&Path>,
    staging: &Path,
    owner: Option<(u32, u32)>,
    reason: impl FnOnce(&Manifest) -> String,
) -> Result<Staged, String> {
    let result = prepare_in(file, key, database, staging, owner, reason);
    if result.is_err() {
        let _ = std::fs::remove_dir_all(staging);
    }
    result
}

fn prepare_in(
    file: &Path,
    key: Option<&Key>,
    database: Option<&Path>,
    staging: &Path,
    owner: Option<(u32, u32)>,
    reason: impl FnOnce(&Manifest) -> String,
) -> Result<Staged, String> {
    let manifest = open_archive(file, key, staging)?;
    if manifest.schema_version > SCHEMA_VERSION {
        return Err(format!(
            "{} was made by a newer innkeep (schema {}, this one knows up to {}); restore it \
             with that version",
            file.display(),
            manifest.schema_version,
            SCHEMA_VERSION
        ));
    }
    lay_out(staging).map_err(|e| format!("cannot prepare the restored files: {e}"))?;
    if let Some(db) = database {
        super::restore_db::put(staging, db)?;
    }
    let reason = reason(&manifest);
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let series = runtime.block_on(async {
        let db = Db::open(&staging.join(DB_FILE)).map_err(|e| e.operator_message())?;
        numbering::hold_after_restore(&db, reason)
            .await
            .map_err(|e| e.operator_message())?;
        let series = db
            .read(crate::store::numbering::series)
            .await
            .map_err(|e| e.operator_message());
        // Closed (its journals folded back) before the files are handed over.
        tokio::task::spawn_blocking(move || drop(db))
            .await
            .map_err(|e| e.to_string())?;
        series
    })?;
    super::owner::settle(staging, owner)
        .map_err(|e| format!("cannot make the restored files private: {e}"))?;
    Ok(Staged { manifest, series })
}

/// Unpacks the backup (opening it first when it is encrypted) into `staging`, verified.
fn open_archive(file: &Path, key: Option<&Key>, staging: &Path) -> Result<Manifest, String> {
    if !backup::crypt::is_sealed(file)? {
        return backup::read::unpack(file, staging);
    }
    let key = key.ok_or_else(|| {
        format!(
            "{} is encrypted: give its passphrase (--passphrase-file FILE, or \
             INNKEEP_BACKUP_PASSPHRASE) or, if it was made for a recipient, --identity FILE",
            file.display()
        )
    })?;
    let work = backup::tempdir_beside(staging)?;
    let plain = work.join("archive.tar");
    let result =
        backup::crypt::open(file, &plain, key).and_then(|()| backup::read::unpack(&plain, staging));
    let _ = std::fs::remove_dir_all(&work);
    result
}

/// Renames `from` to `to`, refusing to replace anything already there.
fn place(from: &Path, to: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(to).is_ok() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} would be replaced", to.display()),
        ));
    }
    std::fs::rename(from, to)
}

/// Turns the unpacked archive into a data directory: the configuration and certificates are
/// gathered for `from-backup/`, then `data/*` moves up (replacing nothing: not the checked
/// database), and a `from-backup/` the data directory already had (from an earlier restore)
/// goes inside the new one as `earlier/`.
fn lay_out(staging: &Path) -> std::io::Result<()> {
    let gather = staging.join(GATHER);
    for part in ["config", "certs"] {
        let from = staging.join(part);
        if from.exists() {
            if !gather.exists() {
                std::fs::create_dir(&gather)?;
            }
            place(&from, &gather.join(part))?;
        }
    }
    let data = staging.join("data");
    if data.exists() {
        for e in std::fs::read_dir(&data)? {
            let e = e?;
            place(&e.path(), &staging.join(e.file_name()))?;
        }
        std::fs::remove_dir(&data)?;
    }
    if gather.exists() {
        let earlier = staging.join("from-backup");
        if earlier.exists() {
            place(&earlier, &gather.join("earlier"))?;
        }
        place(&gather, &staging.join("from-backup"))?;
    }
    Ok(())
}

/// Puts the prepared `staging` in the place of `dir`, setting the data directory as it was
/// aside (never deleted; put back if the swap fails). The name it was set aside under.
pub fn swap(staging: &Path, dir: &Path) -> Result<Option<PathBuf>, String> {
    let aside = set_aside(dir).inspect_err(|_| {
        let _ = std::fs::remove_dir_all(staging);
    })?;
    if let Err(e) = std::fs::rename(staging, dir) {
        let back = aside.as_ref().map(|a| std::fs::rename(a, dir));
        let _ = std::fs::remove_dir_all(staging);
        return Err(match back {
            Some(Err(b)) => format!(
                "cannot move the restored files to {}: {e}; and the data directory set aside \
                 could not be put back ({b}): it is in {}",
                dir.display(),
                aside.as_deref().unwrap_or(dir).display()
            ),
            _ => format!(
                "cannot move the restored files to {}: {e}. Nothing was changed",
                dir.display()
            ),
        });
    }
    if let Some(parent) = dir.parent() {
        let _ = crate::durable::sync_dir(parent);
    }
    Ok(aside)
}

/// Renames the current data directory out of the way (never deleted); its new name.
fn set_aside(dir: &Path) -> Result<Option<PathBuf>, String> {
    // A directory holding nothing but the lock this restore took (a new PC) is not kept.
    let only_lock = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .all(|e| e.file_name() == super::serve::LOCK_FILE)
        })
        .unwrap_or(true);
    if only_lock {
        let _ = std::fs::remove_file(dir.join(super::serve::LOCK_FILE));
        let _ = std::fs::remove_dir(dir);
        return Ok(None);
    }
    let stamp = chrono::Utc::now().format("%Y%m%d-%H%M%S");
    let name = format!(
        "{}.before-restore-{stamp}",
        dir.file_name().unwrap_or_default().to_string_lossy()
    );
    let aside = dir.with_file_name(name);
    std::fs::rename(dir, &aside).map_err(|e| {
        format!(
            "cannot set {} aside: {e}. Nothing was changed",
            dir.display()
        )
    })?;
    Ok(Some(aside))
}
