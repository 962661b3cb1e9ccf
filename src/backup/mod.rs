//! The backup file (`innkeep backup FILE`, `innkeep restore FILE`): one tar archive holding
//! everything a new PC needs. `manifest.json` comes first (the format, this innkeep's
//! version, when, the schema version, each table's row count and each file's SHA-256), then
//! `innkeep.sqlite3` (a consistent online snapshot through SQLite's backup API, in steps,
//! while the server keeps serving), the data directory's own files (`keys/`, the cursor key)
//! under `data/`, the configuration file under `config/` and the compliance certificates
//! under `certs/`. The archive is written under a temporary name, verified (read back,
//! every file's digest, `integrity_check` and the row counts of the copy) and only then
//! given its name.

pub mod crypt;
pub mod read;
pub mod snapshot;
pub mod staging;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::db::DB_FILE;

/// The archive format this innkeep writes and reads.
pub const FORMAT: u32 = 1;

/// The manifest's name in the archive.
pub const MANIFEST: &str = "manifest.json";

/// Files of the data directory that are not copied: the live database's journals (the
/// snapshot is whole without them), the feed's mark (a restore starts a new feed), the
/// server's lock; nor are unfinished files, backups kept there, or a backup's own working
/// directory.
pub(crate) const SKIPPED: &[&str] = &[
    "innkeep.sqlite3-wal",
    "innkeep.sqlite3-shm",
    "feed.mark",
    "innkeep.lock",
];

/// What a backup holds, written first in the archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The archive format ([`FORMAT`]).
    pub format: u32,
    /// The innkeep that wrote it.
    pub innkeep: String,
    /// When the snapshot was taken (UTC).
    pub created_at: String,
    /// The database's schema version.
    pub schema_version: i64,
    /// Rows per table in the snapshot.
    pub rows: BTreeMap<String, i64>,
    /// Every other file of the archive with its SHA-256 (hex).
    pub files: BTreeMap<String, String>,
    /// Every such file's length in bytes (absent in backups of earlier innkeeps).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sizes: BTreeMap<String, u64>,
    /// The last invoice number in the snapshot, to compare with the last one on paper.
    pub last_invoice: Option<String>,
}

/// What to put in a backup.
pub struct Sources<'a> {
    /// The data directory.
    pub data_dir: &'a Path,
    /// The configuration file, when there is one.
    pub config: Option<&'a Path>,
    /// Certificates the configuration names.
    pub certificates: Vec<PathBuf>,
}

/// The SHA-256 of a file, in hex.
pub fn digest(path: &Path) -> std::io::Result<String> {
    let mut f = File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0; 64 * 1024];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The data directory's own files (relative paths), sorted.
fn data_files(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir.join(under))? {
        let entry = entry?;
        let rel = under.join(entry.file_name());
        let name = entry.file_name().to_string_lossy().to_string();
        if entry.file_type()?.is_dir() {
            // A backup written into the data directory works beside itself: not copied.
            if !name.starts_with(".innkeep-") {
                data_files(dir, &rel, out)?;
            }
        } else if rel != Path::new(DB_FILE)
            && !SKIPPED.contains(&name.as_str())
            && !name.ends_with(".partial")
            && !name.ends_with(".backup")
        {
            out.push(rel);
        }
    }
    out.sort();
    Ok(())
}

/// Writes a backup of `src` to `out` (temporary name, verified, sealed when asked, then
/// renamed), reporting the snapshot's progress as (pages copied, pages in all). Returns the
/// manifest.
pub fn write(
    src: &Sources,
    out: &Path,
    seal: Option<&crypt::Seal>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Manifest, String> {
    let work = tempdir_beside(out)?;
    let result = write_in(src, out, seal, &work, progress);
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn write_in(
    src: &Sources,
    out: &Path,
    seal: Option<&crypt::Seal>,
    work: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Manifest, String> {
    let copy = work.join(DB_FILE);
    let shot = snapshot::take(&src.data_dir.join(DB_FILE), &copy, progress)?;
    let mut entries: Vec<(String, PathBuf)> = vec![(DB_FILE.to_string(), copy)];
    let mut rel = Vec::new();
    data_files(src.data_dir, Path::new(""), &mut rel).map_err(|e| {
        format!(
            "cannot read the data directory {}: {e}",
            src.data_dir.display()
        )
    })?;
    let mut others: Vec<(String, PathBuf)> = rel
        .into_iter()
        .map(|r| {
            (
                format!("data/{}", r.to_string_lossy()),
                src.data_dir.join(r),
            )
        })
        .collect();
    if let Some(c) = src.config {
        others.push((format!("config/{}", file_name(c)), c.to_path_buf()));
    }
    for c in &src.certificates {
        others.push((format!("certs/{}", file_name(c)), c.clone()));
    }
    // Each file is copied first, so one that changes meanwhile (a log) is archived as it was
    // when copied, with the digest of what is archived.
    for (name, path) in others {
        let copy = work.join("files").join(&name);
        if let Some(parent) = copy.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::copy(&path, &copy).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        entries.push((name, copy));
    }
    let (mut files, mut sizes) = (BTreeMap::new(), BTreeMap::new());
    for (name, path) in &entries {
        let unreadable = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
        files.insert(name.clone(), digest(path).map_err(unreadable)?);
        sizes.insert(
            name.clone(),
            std::fs::metadata(path).map_err(unreadable)?.len(),
        );
    }
    let manifest = Manifest {
        format: FORMAT,
        innkeep: env!("CARGO_PKG_VERSION").to_string(),
        created_at: crate::clock::now_text(),
        schema_version: shot.schema_version,
        rows: shot.rows,
        files,
        sizes,
        last_invoice: shot.last_invoice,
    };
    let tmp = crate::durable::temporary(out);
    let plain = work.join("archive.tar");
    let io = |e: std::io::Error| format!("cannot write {}: {e}", plain.display());
    {
        let mut tar = tar::Builder::new(BufWriter::new(private_file(&plain).map_err(io)?));
        let json = serde_json::to_vec_pretty(&manifest).map_err(|e| e.to_string())?;
        let mut header = tar::Header::new_gnu();
        header.set_size(json.len() as u64);
        header.set_mode(0o600);
        header.set_mtime(chrono::Utc::now().timestamp().max(0) as u64);
        header.set_cksum();
        tar.append_data(&mut header, MANIFEST, json.as_slice())
            .map_err(io)?;
        for (name, path) in &entries {
            let mut f = File::open(path).map_err(io)?;
            tar.append_file(name, &mut f).map_err(io)?;
        }
        tar.into_inner().map_err(io)?.flush().map_err(io)?;
    }
    // Read back what was written before giving it its name.
    read::unpack(&plain, &work.join("check"))?;
    match seal {
        None => std::fs::rename(&plain, &tmp).map_err(io)?,
        Some(how) => {
            crypt::seal(&plain, &tmp, how)?;
            // A passphrase can be tried here: the sealed file must open to the same archive.
            if let crypt::Seal::Passphrase(p) = how {
                let opened = work.join("opened.tar");
                crypt::open(&tmp, &opened, &crypt::Key::Passphrase(p.clone()))?;
                let same = digest(&opened).map_err(io)? == digest(&plain).map_err(io)?;
                if !same {
                    return Err("the encrypted backup did not read back the same".into());
                }
            }
        }
    }
    crate::durable::commit(&tmp, out)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(manifest)
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string()
}

/// A new file readable and writable by its owner only (a backup holds guests' personal data
/// and the server's keys).
pub fn private_file(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options.open(path)?;
    // An existing file keeps its mode through `open`: make it private too.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// A name for a new directory beside `path` (same file system, so renames stay renames),
/// not made yet.
pub fn name_beside(path: &Path) -> PathBuf {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    parent.join(format!(".innkeep-{}", crate::ids::new("work")))
}

/// A fresh working directory beside `path`, private to this user.
pub fn tempdir_beside(path: &Path) -> Result<PathBuf, String> {
    let dir = name_beside(path);
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(&dir).map_err(|e| {
        format!(
            "cannot write in {}: {e}",
            dir.parent().unwrap_or(Path::new(".")).display()
        )
    })?;
    Ok(dir)
}
