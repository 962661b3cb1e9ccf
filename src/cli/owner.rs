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

/// Gives `path` and everything under it to `owner` (a restore run as root).
pub fn give(path: &Path, owner: (u32, u32)) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::lchown(path, Some(owner.0), Some(owner.1))?;
        if std::fs::symlink_metadata(path)?.is_dir() {
            for entry in std::fs::read_dir(path)? {
                give(&entry?.path(), owner)?;
            }
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
