//! `innkeep doctor`'s checks of the data directory itself: the free space on its disk and
//! who may read and write it and its keys.

use std::path::Path;

use super::doctor::{Check, attention, ok};

/// Free space below which the data directory's disk needs attention (or twice the
/// database, when that is more: a backup and a restore need room).
const MIN_FREE: u64 = 1 << 30;

/// A size as a person reads it: "544 kB", "12.3 MB", "7.6 GB".
fn size(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{:.0} kB", b / 1e3)
    }
}

pub fn disk(dir: &Path) -> Check {
    let db = std::fs::metadata(dir.join(crate::db::DB_FILE)).map_or(0, |m| m.len());
    let need = MIN_FREE.max(2 * db);
    match free_space(dir) {
        Some(free) if free >= need => ok(
            "disk",
            format!("{} free (the database is {}).", size(free), size(db)),
        ),
        Some(free) => attention(
            "disk",
            format!(
                "Only {} free on the data directory's disk (the database is {}); innkeep \
                 needs at least {} to keep writing and to take backups. Free some space.",
                size(free),
                size(db),
                size(need)
            ),
        ),
        None => attention(
            "disk",
            "Cannot tell how much space is free on the data directory's disk.",
        ),
    }
}

fn free_space(dir: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        let s = rustix::fs::statvfs(dir).ok()?;
        Some(s.f_bavail.saturating_mul(s.f_frsize))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

pub fn permissions(dir: &Path) -> Check {
    let probe = dir.join(".doctor-probe");
    if let Err(e) = std::fs::write(&probe, b"") {
        return attention(
            "permissions",
            format!(
                "innkeep cannot write to {} ({e}); it must belong to the user innkeep runs as.",
                dir.display()
            ),
        );
    }
    let _ = std::fs::remove_file(&probe);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| {
            std::fs::metadata(p)
                .map(|m| m.permissions().mode() & 0o777)
                .ok()
        };
        if mode(dir).is_some_and(|m| m & 0o007 != 0) {
            return attention(
                "permissions",
                format!(
                    "{} can be read by every user of this PC, and it holds guests' personal \
                     data: run `chmod 700 {}`.",
                    dir.display(),
                    dir.display()
                ),
            );
        }
        let mut keys = vec![dir.join("cursor.key")];
        if let Ok(entries) = std::fs::read_dir(dir.join("keys")) {
            keys.extend(entries.flatten().map(|e| e.path()));
        }
        if let Some(open) = keys
            .iter()
            .find(|k| mode(k).is_some_and(|m| m & 0o077 != 0))
        {
            return attention(
                "permissions",
                format!(
                    "The key file {} can be read by others: run `chmod 600 {}`.",
                    open.display(),
                    open.display()
                ),
            );
        }
    }
    ok(
        "permissions",
        "The data directory and its keys are innkeep's alone.",
    )
}
