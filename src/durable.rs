//! Files as durable as rows: a file the server relies on is written under a temporary name,
//! flushed to the disk, renamed over its place and its directory flushed, so a power cut
//! leaves either the old file or the whole new one, never an empty or torn one.
//!
//! The steps go through [`Disk`], so that the order can be checked against
//! [`power_cut::Model`], a disk that loses whatever was not flushed when the power goes (and,
//! as ext4 may, keeps a rename whose file's data never reached the disk).

pub mod power_cut;

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// The file system operations a durable write is made of.
pub trait Disk: Send + Sync {
    /// Creates or replaces the file at `path` with `bytes` (not flushed), readable by its owner
    /// only when `private`.
    fn create(&self, path: &Path, bytes: &[u8], private: bool) -> io::Result<()>;
    /// Flushes the file at `path` to the disk.
    fn sync_file(&self, path: &Path) -> io::Result<()>;
    /// Renames `from` over `to`.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Flushes the directory `dir` itself (its entries: a rename or a new file in it).
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    /// Reads the file at `path`.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
}

/// The machine's own disk.
pub struct RealDisk;

impl Disk for RealDisk {
    fn create(&self, path: &Path, bytes: &[u8], private: bool) -> io::Result<()> {
        use std::io::Write;
        if !private {
            return std::fs::write(path, bytes);
        }
        let _ = std::fs::remove_file(path);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        options.open(path)?.write_all(bytes)
    }

    fn sync_file(&self, path: &Path) -> io::Result<()> {
        File::open(path)?.sync_all()
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        sync_dir(dir)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }
}

/// The temporary name a file is written under before [`commit`] puts it in place.
pub fn temporary(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
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
    commit_on(&RealDisk, tmp, path)
}

fn commit_on(disk: &dyn Disk, tmp: &Path, path: &Path) -> io::Result<()> {
    disk.sync_file(tmp)?;
    disk.rename(tmp, path)?;
    disk.sync_dir(parent(path))
}

/// Writes `bytes` to `path` on `disk` durably (see the module's description).
pub fn write_on(disk: &dyn Disk, path: &Path, bytes: &[u8], private: bool) -> io::Result<()> {
    let tmp = temporary(path);
    disk.create(&tmp, bytes, private)?;
    commit_on(disk, &tmp, path)
}

/// Writes `bytes` to `path` durably (see the module's description).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_on(&RealDisk, path, bytes, false)
}

/// Writes `bytes` to `path` durably, readable by its owner only (it holds secrets); replaces
/// the file if there is one.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_on(&RealDisk, path, bytes, true)
}

/// Creates the data directory, readable by its owner only.
pub fn prepare_data_dir(dir: &Path) -> crate::error::AppResult<()> {
    prepare_private_dir(dir)
}

/// Creates a directory only its owner can enter.
pub fn prepare_private_dir(dir: &Path) -> crate::error::AppResult<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        crate::error::AppError::internal(format!(
            "cannot create the data directory {}: {e}",
            dir.display()
        ))
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    }
    Ok(())
}
