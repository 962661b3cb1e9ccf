//! Commands run as root on an installed innkeep act as the data directory's owner (the
//! `innkeep` system user), so that nothing they create is root's and unreadable by the
//! service: `sudo innkeep setup` just works.

use std::path::Path;
use std::process::ExitCode;

/// Whether this process runs as root (its effective user id is 0); always false off Linux.
pub fn is_root() -> bool {
    #[cfg(target_os = "linux")]
    {
        let euid = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("Uid:"))?
                    .split_whitespace()
                    .nth(1)?
                    .parse::<u32>()
                    .ok()
            });
        euid == Some(0)
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// The data directory's owner (uid, gid) when this process is root and the directory
/// belongs to someone else; `None` otherwise.
pub fn other_owner(data_dir: &Path) -> Option<(u32, u32)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(data_dir).ok()?;
        (is_root() && m.uid() != 0).then_some((m.uid(), m.gid()))
    }
    #[cfg(not(unix))]
    {
        let _ = data_dir;
        None
    }
}

/// Runs this same command line again as `owner`, and returns its exit code.
pub fn rerun_as(owner: (u32, u32)) -> Result<ExitCode, String> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let status = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .uid(owner.0)
            .gid(owner.1)
            .status()
            .map_err(|e| format!("cannot run as the data directory's owner: {e}"))?;
        Ok(ExitCode::from(
            status.code().unwrap_or(1).clamp(0, 255) as u8
        ))
    }
    #[cfg(not(unix))]
    {
        let _ = owner;
        Err("cannot change user here".into())
    }
}

/// Makes a restored data directory private at once (directories 0700, files 0600) and, when
/// `owner` is given (a restore run as root), gives it to the service's user. Only directories
/// and regular files with a single name are touched, each through a descriptor opened without
/// following links and checked again: anything else (a link, a device, a FIFO, a file with a
/// second hard link) is refused, so no file elsewhere can be handed over. Children go first
/// and `path` itself last: until then it is root's (and 0700), so nobody else can reach in
/// while the walk goes on. Run it on the staging directory, before it takes its place.
pub fn settle(path: &Path, owner: Option<(u32, u32)>) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::fs::{FileType, Mode, OFlags};
        let refused = |what: &str| {
            std::io::Error::other(format!(
                "{} is {what}; a restored data directory holds only files and directories",
                path.display()
            ))
        };
        let looked = std::fs::symlink_metadata(path)?;
        if !(looked.is_dir() || looked.is_file()) {
            return Err(refused("neither a file nor a directory"));
        }
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let stat = rustix::fs::fstat(&fd)?;
        let kind = FileType::from_raw_mode(stat.st_mode);
        let mode = match kind {
            FileType::Directory => 0o700,
            FileType::RegularFile if stat.st_nlink == 1 => 0o600,
            FileType::RegularFile => return Err(refused("a file with another hard link")),
            _ => return Err(refused("neither a file nor a directory")),
        };
        if kind == FileType::Directory {
            for entry in std::fs::read_dir(path)? {
                match settle(&entry?.path(), owner) {
                    // Gone since it was listed: SQLite deletes a database's `-wal` and
                    // `-shm` when its last connection closes, which a connection pool's
                    // own thread may do just after the database was let go. A file that
                    // is gone needs no mode.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    other => other?,
                }
            }
        }
        rustix::fs::fchmod(&fd, Mode::from_raw_mode(mode))?;
        if let Some((uid, gid)) = owner {
            rustix::fs::fchown(
                &fd,
                Some(rustix::fs::Uid::from_raw(uid)),
                Some(rustix::fs::Gid::from_raw(gid)),
            )?;
        }
    }
    #[cfg(not(unix))]
    let _ = (path, owner);
    Ok(())
}

/// After `sudo innkeep setup` on an installed innkeep: starts the service, when systemd
/// runs this machine and the unit is installed.
pub fn start_service() {
    let unit = [
        "/lib/systemd/system/innkeep.service",
        "/usr/lib/systemd/system/innkeep.service",
    ];
    if !Path::new("/run/systemd/system").exists() || !unit.iter().any(|u| Path::new(u).exists()) {
        return;
    }
    match std::process::Command::new("systemctl")
        .args(["start", "innkeep"])
        .status()
    {
        Ok(s) if s.success() => {
            println!("The innkeep service is started (systemctl start innkeep).")
        }
        _ => println!("Start it with: sudo systemctl start innkeep"),
    }
}
