//! Files as durable as rows: a file the server relies on is written under a temporary name,
//! flushed to the disk, renamed over its place and its directory flushed, so a power cut
//! leaves either the old file or the whole new one, never an empty or torn one.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// The temporary name a file is written under before [`commit`] puts it in place.
pub fn temporary(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// Flushes the directory `dir` itself (its entries: a rename or a new file in it).
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Flushes `tmp`, renames it to `path` and flushes the directory: after this returns, `path`
/// is whole on disk.
pub fn commit(tmp: &Path, path: &Path) -> io::Result<()> {
    File::open(tmp)?.sync_all()?;
    std::fs::rename(tmp, path)?;
    sync_dir(
        path.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    )
}

/// Writes `bytes` to `path` durably (see the module's description).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temporary(path);
    std::fs::write(&tmp, bytes)?;
    commit(&tmp, path)
}

/// Writes `bytes` to `path` durably, readable by its owner only (it holds secrets); replaces
/// the file if there is one.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let tmp = temporary(path);
    let _ = std::fs::remove_file(&tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&tmp)?;
    file.write_all(bytes)?;
    drop(file);
    commit(&tmp, path)
}
