//! Reading a backup back, as someone else may have made it: the manifest must come first;
//! every other member must be a regular file with a plain name the writer itself produces
//! (see [`staging::plain_name`]), listed in the manifest, present once, no longer than the
//! manifest says; each is written into a fresh private staging directory without following
//! any link, hashed while it streams, and takes its name only when its digest (and length)
//! match. Links, devices, FIFOs, directories, `..` and absolute names are refused before
//! anything is written. Then none may be missing, and the database is checked
//! (`integrity_check`, its schema version and each table's rows equal to the manifest's). A
//! damaged, truncated, altered or hostile file is refused with what is wrong, and nothing
//! outside the staging directory is ever touched.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use super::staging::{Expected, Staging, plain_name};
use super::{FORMAT, MANIFEST, Manifest, snapshot};
use crate::db::DB_FILE;

/// The largest manifest read.
const MANIFEST_LIMIT: u64 = 16 * 1024 * 1024;

/// What kind of member a tar header describes, in words, for the refusal.
fn kind(t: tar::EntryType) -> &'static str {
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_hard_link() {
        "a hard link"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_character_special() || t.is_block_special() {
        "a device"
    } else if t.is_fifo() {
        "a FIFO"
    } else {
        "not a regular file"
    }
}

/// Unpacks the backup at `archive` into the new directory `into` (it must not exist; it is
/// made private to this user) and verifies it; the manifest.
pub fn unpack(archive: &Path, into: &Path) -> Result<Manifest, String> {
    let file =
        File::open(archive).map_err(|e| format!("cannot open {}: {e}", archive.display()))?;
    // Without sizes in the manifest (backups of earlier innkeeps), no member can be longer
    // than the archive itself.
    let archive_len = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
    let damaged =
        |why: String| format!("{} is not a whole innkeep backup: {why}", archive.display());
    let staging = Staging::create(into)
        .map_err(|e| format!("cannot make the directory {}: {e}", into.display()))?;
    let mut tar = tar::Archive::new(BufReader::new(file));
    let entries = tar.entries().map_err(|e| damaged(e.to_string()))?;
    let mut manifest: Option<Manifest> = None;
    let mut seen = BTreeSet::new();
    for entry in entries {
        let mut entry = entry.map_err(|e| damaged(e.to_string()))?;
        let text = String::from_utf8_lossy(&entry.path_bytes()).to_string();
        let kind_of = entry.header().entry_type();
        if !kind_of.is_file() {
            return Err(damaged(format!(
                "{text:?} is {}, and a backup holds only regular files",
                kind(kind_of)
            )));
        }
        let Some(m) = &manifest else {
            if text != MANIFEST {
                return Err(damaged(format!(
                    "it starts with {text:?}, not the manifest"
                )));
            }
            let m = read_manifest(&mut entry).map_err(damaged)?;
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
        };
        let bytes = entry.path_bytes().into_owned();
        let parts = plain_name(&bytes).ok_or_else(|| {
            damaged(format!(
                "it holds {text:?}, which is not a name an innkeep backup uses"
            ))
        })?;
        let Some(digest) = m.files.get(&text) else {
            return Err(damaged(format!(
                "it holds {text:?}, which its manifest does not list"
            )));
        };
        if !seen.insert(text.clone()) {
            return Err(damaged(format!("it holds {text:?} twice")));
        }
        let size = m.sizes.get(&text).copied();
        if size.is_some_and(|s| s != entry.size()) || entry.size() > archive_len {
            return Err(damaged(format!("{text} is not the size its manifest says")));
        }
        let expected = Expected {
            digest,
            size,
            limit: archive_len,
        };
        staging
            .write(&parts, &mut entry, &expected)
            .map_err(damaged)?;
    }
    let m = manifest.ok_or_else(|| damaged("it is empty".into()))?;
    if let Some(name) = m.files.keys().find(|n| !seen.contains(*n)) {
        return Err(damaged(format!(
            "{name} is missing (the file is cut short?)"
        )));
    }
    let db = snapshot::check(&into.join(DB_FILE)).map_err(damaged)?;
    if db.rows != m.rows || db.schema_version != m.schema_version {
        return Err(damaged(
            "the database's row counts differ from its manifest".into(),
        ));
    }
    Ok(m)
}

/// Reads and checks the manifest member.
fn read_manifest(entry: &mut dyn Read) -> Result<Manifest, String> {
    let mut json = Vec::new();
    entry
        .take(MANIFEST_LIMIT + 1)
        .read_to_end(&mut json)
        .map_err(|e| e.to_string())?;
    if json.len() as u64 > MANIFEST_LIMIT {
        return Err("its manifest is too large".into());
    }
    let m: Manifest =
        serde_json::from_slice(&json).map_err(|e| format!("its manifest cannot be read ({e})"))?;
    if !m.files.contains_key(DB_FILE) {
        return Err("its manifest lists no database".into());
    }
    Ok(m)
}
