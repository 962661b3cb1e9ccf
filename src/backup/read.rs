//! Reading a backup back: every entry unpacked under a directory (no name may leave it),
//! every file's digest compared with the manifest, none missing and none extra, and the
//! database checked (`integrity_check`, its schema version and each table's rows equal to
//! what the manifest says). A damaged, truncated or altered file is refused with what is
//! wrong, before anything is changed.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Component, Path};

use super::{FORMAT, MANIFEST, Manifest, digest, snapshot};
use crate::db::DB_FILE;

/// Whether `name` stays inside the directory it is unpacked to.
fn safe(name: &Path) -> bool {
    name.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Unpacks the backup at `archive` into the directory `into` and verifies it; the manifest.
pub fn unpack(archive: &Path, into: &Path) -> Result<Manifest, String> {
    let file =
        File::open(archive).map_err(|e| format!("cannot open {}: {e}", archive.display()))?;
    let damaged =
        |why: String| format!("{} is not a whole innkeep backup: {why}", archive.display());
    let mut tar = tar::Archive::new(BufReader::new(file));
    let entries = tar.entries().map_err(|e| damaged(e.to_string()))?;
    let mut manifest: Option<Manifest> = None;
    let mut seen = Vec::new();
    for entry in entries {
        let mut entry = entry.map_err(|e| damaged(e.to_string()))?;
        let name = entry
            .path()
            .map_err(|e| damaged(e.to_string()))?
            .to_path_buf();
        let text = name.to_string_lossy().to_string();
        if manifest.is_none() {
            if text != MANIFEST {
                return Err(damaged(format!(
                    "it starts with {text:?}, not the manifest"
                )));
            }
            let mut json = Vec::new();
            entry
                .read_to_end(&mut json)
                .map_err(|e| damaged(e.to_string()))?;
            let m: Manifest = serde_json::from_slice(&json)
                .map_err(|e| damaged(format!("its manifest cannot be read ({e})")))?;
            if m.format != FORMAT {
                return Err(format!(
                    "{} is a backup in format {}, which this innkeep ({}) does not read",
                    archive.display(),
                    m.format,
                    env!("CARGO_PKG_VERSION")
                ));
            }
            manifest = Some(m);
            continue;
        }
        if !safe(&name)
            || !manifest
                .as_ref()
                .is_some_and(|m| m.files.contains_key(&text))
        {
            return Err(damaged(format!(
                "it holds {text:?}, which its manifest does not list"
            )));
        }
        let target = into.join(&name);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        entry
            .unpack(&target)
            .map_err(|e| damaged(format!("{text}: {e}")))?;
        seen.push(text);
    }
    let m = manifest.ok_or_else(|| damaged("it is empty".into()))?;
    for (name, expected) in &m.files {
        if !seen.contains(name) {
            return Err(damaged(format!(
                "{name} is missing (the file is cut short?)"
            )));
        }
        let actual = digest(&into.join(name)).map_err(|e| damaged(e.to_string()))?;
        if &actual != expected {
            return Err(damaged(format!(
                "{name} is not what was backed up (its digest differs)"
            )));
        }
    }
    let db = snapshot::check(&into.join(DB_FILE)).map_err(damaged)?;
    if db.rows != m.rows || db.schema_version != m.schema_version {
        return Err(damaged(
            "the database's row counts differ from its manifest".into(),
        ));
    }
    Ok(m)
}
