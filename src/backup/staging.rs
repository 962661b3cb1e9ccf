//! A restore's staging directory, written so that nothing can lead outside it.
//!
//! A backup file may come from anyone who could put a file on the USB stick or the NAS share,
//! and `innkeep restore` runs as root on an installed innkeep. So the staging directory is
//! made fresh (mode 0700, so no other user can add anything to it), every directory below it
//! is made by us and opened without following links, every file is created new
//! (`O_EXCL | O_NOFOLLOW`, mode 0600) under a temporary name in its own directory, filled
//! while its SHA-256 and length are taken, and renamed to its name only when both are what the
//! manifest says, never over an existing file. No link of any kind is ever created, and no
//! path is ever resolved through one.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags};
use sha2::{Digest, Sha256};

/// The name a file is written under until it has been checked.
const INCOMING: &str = ".incoming";

/// A staging directory this process made.
pub struct Staging {
    root: OwnedFd,
    path: PathBuf,
}

/// What a file must turn out to be.
pub struct Expected<'a> {
    /// Its SHA-256, in hex.
    pub digest: &'a str,
    /// Its length in bytes: exactly this when known, else at most `limit`.
    pub size: Option<u64>,
    /// The most bytes read when the size is not known.
    pub limit: u64,
}

fn dir_flags() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
}

impl Staging {
    /// Makes the directory `path` (it must not exist; its parent must), private to this user.
    pub fn create(path: &Path) -> io::Result<Staging> {
        rustix::fs::mkdir(path, Mode::from_raw_mode(0o700))?;
        Staging::open(path)
    }

    /// Opens a directory this process made with [`Staging::create`].
    pub fn open(path: &Path) -> io::Result<Staging> {
        let root = rustix::fs::open(path, dir_flags(), Mode::empty())?;
        Ok(Staging {
            root,
            path: path.to_path_buf(),
        })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens the directory `parts` below the root, making each missing one (0700); never
    /// through a link.
    fn dir(&self, parts: &[&str]) -> io::Result<OwnedFd> {
        let mut fd = rustix::fs::openat(&self.root, ".", dir_flags(), Mode::empty())?;
        for part in parts {
            match rustix::fs::mkdirat(&fd, *part, Mode::from_raw_mode(0o700)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
            fd = rustix::fs::openat(&fd, *part, dir_flags(), Mode::empty())?;
        }
        Ok(fd)
    }

    /// Writes `from` as the file `name` (components of a plain relative name), checked
    /// against `expected` before it takes its name. Nothing is left behind on failure.
    pub fn write(
        &self,
        name: &[&str],
        from: &mut dyn Read,
        expected: &Expected,
    ) -> Result<(), String> {
        let Some((file, parents)) = name.split_last() else {
            return Err("an entry has no name".into());
        };
        let io = |e: io::Error| format!("{}: {e}", name.join("/"));
        let dir = self.dir(parents).map_err(io)?;
        let fd = rustix::fs::openat(
            &dir,
            INCOMING,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )
        .map_err(|e| io(e.into()))?;
        let checked = fill(File::from(fd), from, expected)
            .map_err(io)
            .and_then(|ok| {
                ok.then_some(()).ok_or_else(|| {
                    format!(
                        "{} is not what was backed up (its digest or length differs)",
                        name.join("/")
                    )
                })
            });
        // Never over an existing name (members are listed once; this is the belt to that).
        // A plain rename: network file systems refuse renameat2's flags.
        let placed = checked.and_then(|()| {
            match rustix::fs::statat(&dir, *file, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(_) => Err(format!("{} is in the backup twice", name.join("/"))),
                Err(_) => {
                    rustix::fs::renameat(&dir, INCOMING, &dir, *file).map_err(|e| io(e.into()))
                }
            }
        });
        if placed.is_err() {
            let _ = rustix::fs::unlinkat(&dir, INCOMING, AtFlags::empty());
        }
        placed
    }
}

/// Copies `from` into `to`, hashing and counting; whether it is what was expected. Reads at
/// most one byte beyond what is allowed, so a lying size is caught without filling the disk.
fn fill(mut to: File, from: &mut dyn Read, expected: &Expected) -> io::Result<bool> {
    let allowed = expected.size.unwrap_or(expected.limit);
    let mut limited = from.take(allowed.saturating_add(1));
    let (mut hash, mut length) = (Sha256::new(), 0u64);
    let mut buf = vec![0; 64 * 1024];
    loop {
        let n = limited.read(&mut buf)?;
        if n == 0 {
            break;
        }
        length += n as u64;
        if length > allowed {
            return Ok(false);
        }
        hash.update(&buf[..n]);
        to.write_all(&buf[..n])?;
    }
    to.sync_all()?;
    let digest: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let size_ok = expected.size.is_none_or(|s| s == length);
    Ok(size_ok && digest == expected.digest)
}

/// The components of an archive member's name when it is one the backup writer produces: the
/// database, `data/…`, `config/FILE` or `certs/FILE`, each component a plain name (no `..`,
/// `.`, empty part, absolute path or control character). Under `data/`, never what the
/// writer leaves out (a database, its journals, the feed's mark, the lock, unfinished files,
/// backups, working directories), so nothing from `data/` can stand in for the checked
/// database. `None` for anything else.
pub fn plain_name(name: &[u8]) -> Option<Vec<&str>> {
    let text = std::str::from_utf8(name).ok()?;
    let parts: Vec<&str> = text.split('/').collect();
    let plain = |p: &&str| {
        !p.is_empty() && *p != "." && *p != ".." && !p.chars().any(|c| c.is_control() || c == '\\')
    };
    if !parts.iter().all(plain) {
        return None;
    }
    let left_out = |p: &&str| {
        p.starts_with(".innkeep-")
            || p.ends_with(".partial")
            || p.ends_with(".backup")
            || *p == crate::db::DB_FILE
            || super::SKIPPED.contains(p)
    };
    let ok = match parts.as_slice() {
        [db] => *db == crate::db::DB_FILE,
        ["data", rest @ ..] => !rest.is_empty() && !rest.iter().any(left_out),
        ["config" | "certs", _] => true,
        _ => false,
    };
    ok.then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_writers_own_names_are_plain() {
        assert_eq!(
            plain_name(b"innkeep.sqlite3"),
            Some(vec!["innkeep.sqlite3"])
        );
        assert!(plain_name(b"data/keys/signing-1.pem").is_some());
        assert!(plain_name(b"config/innkeep.toml").is_some());
        for bad in [
            &b"../x"[..],
            b"/etc/passwd",
            b"data/../../x",
            b"data/./x",
            b"data//x",
            b"data",
            b"other/x",
            b"config/a/b",
            b"data/innkeep.sqlite3",
            b"data/innkeep.sqlite3-wal",
            b"data/feed.mark",
            b"data/keys/x.partial",
            b"data/.innkeep-from-backup/x",
            b"data/x\n",
            b"data/\xff",
            b"",
        ] {
            assert_eq!(plain_name(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn a_file_takes_its_name_only_when_digest_and_length_match() {
        let home = tempfile::tempdir().unwrap();
        let s = Staging::create(&home.path().join("s")).unwrap();
        let good = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"; // hello
        let want = |size| Expected {
            digest: good,
            size,
            limit: 100,
        };
        s.write(&["data", "a"], &mut &b"hello"[..], &want(Some(5)))
            .unwrap();
        assert_eq!(std::fs::read(s.path().join("data/a")).unwrap(), b"hello");
        assert!(
            s.write(&["data", "b"], &mut &b"hello!"[..], &want(Some(5)))
                .is_err()
        );
        assert!(
            s.write(&["data", "c"], &mut &b"hellO"[..], &want(None))
                .is_err()
        );
        assert!(
            s.write(&["data", "a"], &mut &b"hello"[..], &want(None))
                .is_err(),
            "never over an existing file"
        );
        let names: Vec<_> = std::fs::read_dir(s.path().join("data"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec!["a"], "nothing else is left behind");
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(s.path()), 0o700);
        assert_eq!(mode(&s.path().join("data")), 0o700);
        assert_eq!(mode(&s.path().join("data/a")), 0o600);
    }

    #[test]
    fn a_link_planted_in_the_way_is_never_followed() {
        let home = tempfile::tempdir().unwrap();
        let outside = home.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let s = Staging::create(&home.path().join("s")).unwrap();
        std::os::unix::fs::symlink(&outside, s.path().join("data")).unwrap();
        let digest = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
        let e = Expected {
            digest,
            size: Some(5),
            limit: 5,
        };
        assert!(s.write(&["data", "x"], &mut &b"hello"[..], &e).is_err());
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    }
}
