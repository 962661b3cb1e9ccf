//! A backup file someone else made must never become a way in: each hostile archive (a
//! symlinked directory with a file behind it, `../` and absolute names, symbolic and hard
//! links whose manifest digest matches their target, a FIFO, a device, a size that lies) is
//! refused by `innkeep restore`, nothing appears outside its staging directory, and no link
//! is left behind. A real backup is written 0600, and what a restore puts in place is
//! private (0700, files 0600) at once.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::binary::{innkeep, run_ok};

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One member of a hand-made archive.
struct Member {
    name: Vec<u8>,
    kind: tar::EntryType,
    data: Vec<u8>,
    link: Option<Vec<u8>>,
    /// The size written in the header, when it lies.
    size: Option<u64>,
}

fn file(name: &str, data: &[u8]) -> Member {
    Member {
        name: name.as_bytes().to_vec(),
        kind: tar::EntryType::Regular,
        data: data.to_vec(),
        link: None,
        size: None,
    }
}

fn link(name: &str, kind: tar::EntryType, to: &Path) -> Member {
    Member {
        name: name.as_bytes().to_vec(),
        kind,
        data: Vec::new(),
        link: Some(to.as_os_str().as_encoded_bytes().to_vec()),
        size: None,
    }
}

fn special(name: &str, kind: tar::EntryType) -> Member {
    Member {
        kind,
        ..file(name, b"")
    }
}

/// Writes `m` with its raw name (the tar crate itself refuses to write `..` or `/…`).
fn append(b: &mut tar::Builder<Vec<u8>>, m: &Member) {
    let mut h = tar::Header::new_old();
    {
        let old = h.as_old_mut();
        old.name[..m.name.len()].copy_from_slice(&m.name);
        if let Some(l) = &m.link {
            old.linkname[..l.len()].copy_from_slice(l);
        }
    }
    h.set_entry_type(m.kind);
    h.set_mode(0o644);
    h.set_size(m.size.unwrap_or(m.data.len() as u64));
    h.set_cksum();
    b.append(&h, m.data.as_slice()).unwrap();
}

/// A real backup of a fresh installation: its manifest and its members.
fn real_backup(home: &Path) -> (Value, Vec<(String, Vec<u8>)>) {
    let data = home.join("source");
    run_ok(&data, &["migrate"]);
    let file = home.join("real.backup");
    run_ok(&data, &["backup", file.to_str().unwrap()]);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "a backup holds personal data and keys");
    let mut archive = tar::Archive::new(std::fs::File::open(&file).unwrap());
    let mut members = Vec::new();
    for e in archive.entries().unwrap() {
        let mut e = e.unwrap();
        let name = e.path().unwrap().to_string_lossy().to_string();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut e, &mut bytes).unwrap();
        members.push((name, bytes));
    }
    let manifest = serde_json::from_slice(&members.remove(0).1).unwrap();
    (manifest, members)
}

/// A name the manifest lists: its name, the content whose digest it gives, and its size.
type Listed<'a> = (&'a str, &'a [u8], Option<u64>);

/// An archive: the real manifest with `listed` added (name, digest, size), the hostile
/// members, then the real ones.
fn hostile(home: &Path, name: &str, listed: &[Listed], members: &[Member]) -> PathBuf {
    let (mut manifest, real) = real_backup(&home.join(name));
    for (n, content, size) in listed {
        manifest["files"][*n] = Value::String(hex(content));
        if let Some(s) = size {
            manifest["sizes"][*n] = Value::from(*s);
        }
    }
    let mut b = tar::Builder::new(Vec::new());
    append(
        &mut b,
        &file("manifest.json", manifest.to_string().as_bytes()),
    );
    for m in members {
        append(&mut b, m);
    }
    for (n, bytes) in &real {
        append(&mut b, &file(n, bytes));
    }
    let path = home.join(format!("{name}.backup"));
    std::fs::write(&path, b.into_inner().unwrap()).unwrap();
    path
}

/// Every symbolic link under `dir`.
fn links(dir: &Path, found: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let t = e.file_type().unwrap();
        if t.is_symlink() {
            found.push(e.path());
        } else if t.is_dir() {
            links(&e.path(), found);
        }
    }
}

/// Restores `archive` into a new data directory and expects a refusal that changed nothing.
fn refused(home: &Path, archive: &Path, outside: &Path, says: &str) {
    let target = home.join("target");
    let out = innkeep(&target)
        .args(["restore", archive.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{} was restored", archive.display());
    assert!(said.contains("Nothing was changed"), "{said}");
    assert!(said.contains(says), "{said}");
    assert!(
        !target.join("innkeep.sqlite3").exists(),
        "nothing was put in place"
    );
    let left: Vec<_> = std::fs::read_dir(home)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".innkeep-"))
        .collect();
    assert!(left.is_empty(), "the staging directory is gone");
    let outside_now: Vec<_> = std::fs::read_dir(outside).unwrap().collect();
    assert_eq!(
        outside_now.len(),
        1,
        "nothing appeared outside: {outside_now:?}"
    );
    let mut found = Vec::new();
    links(home, &mut found);
    assert!(found.is_empty(), "no link is left behind: {found:?}");
}

#[test]
fn every_hostile_archive_is_refused_and_nothing_escapes() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let outside = home.join("outside");
    std::fs::create_dir(&outside).unwrap();
    let secret = outside.join("secret");
    std::fs::write(&secret, b"root's own file").unwrap();
    use tar::EntryType as T;
    let cases: Vec<(&str, Vec<Listed>, Vec<Member>, &str)> = vec![
        (
            "symlinked-dir",
            vec![("data/evil", b"", None), ("data/evil/x", b"pwned", None)],
            vec![
                link("data/evil", T::Symlink, &outside),
                file("data/evil/x", b"pwned"),
            ],
            "symbolic link",
        ),
        (
            "dotdot",
            vec![("data/../../escape", b"pwned", None)],
            vec![file("data/../../escape", b"pwned")],
            "not a name an innkeep backup uses",
        ),
        (
            "absolute",
            vec![("/tmp/innkeep-escape", b"pwned", None)],
            vec![file(
                &home.join("outside").join("abs").to_string_lossy(),
                b"pwned",
            )],
            "not a name an innkeep backup uses",
        ),
        (
            "symlink-entry",
            vec![("data/link", b"root's own file", None)],
            vec![link("data/link", T::Symlink, &secret)],
            "symbolic link",
        ),
        (
            "hardlink-entry",
            vec![("data/hard", b"root's own file", None)],
            vec![link("data/hard", T::Link, &secret)],
            "hard link",
        ),
        (
            "fifo",
            vec![("data/fifo", b"", None)],
            vec![special("data/fifo", T::Fifo)],
            "FIFO",
        ),
        (
            "device",
            vec![("data/dev", b"", None)],
            vec![special("data/dev", T::Char)],
            "a device",
        ),
        (
            "lying-size",
            vec![("data/big", &[7u8; 4096], Some(5))],
            vec![file("data/big", &[7u8; 4096])],
            "not the size its manifest says",
        ),
        (
            "swapped-database",
            vec![("data/innkeep.sqlite3", b"SQLite format 3\0", None)],
            vec![file("data/innkeep.sqlite3", b"SQLite format 3\0")],
            "not a name an innkeep backup uses",
        ),
        (
            "planted-journal",
            vec![("data/innkeep.sqlite3-wal", b"WAL", None)],
            vec![file("data/innkeep.sqlite3-wal", b"WAL")],
            "not a name an innkeep backup uses",
        ),
        (
            "wrong-digest",
            vec![("data/x", b"what the manifest says", None)],
            vec![file("data/x", b"something else entirely")],
            "not what was backed up",
        ),
    ];
    for (name, listed, members, says) in cases {
        let archive = hostile(home, name, &listed, &members);
        std::fs::remove_dir_all(home.join(name)).unwrap();
        refused(home, &archive, &outside, says);
    }
    assert_eq!(std::fs::read(&secret).unwrap(), b"root's own file");
}

#[test]
fn a_restored_data_directory_is_private_at_once() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let data = home.join("data");
    run_ok(&data, &["migrate"]);
    run_ok(
        &data,
        &["users", "create", "--username", "anna", "--role", "admin"],
    );
    let config = home.join("innkeep.toml");
    std::fs::write(&config, "[events]\nretention_days = 30\n").unwrap();
    let with_config = |dir: &Path, file: &Path| {
        let out = innkeep(dir)
            .args([
                "--config",
                config.to_str().unwrap(),
                "backup",
                file.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let file = home.join("b.backup");
    with_config(&data, &file);
    let target = home.join("target");
    run_ok(&target, &["restore", file.to_str().unwrap()]);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&target), 0o700);
    let mut checked = 0;
    let mut stack = vec![target.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                assert_eq!(mode(&p), 0o700, "{}", p.display());
                stack.push(p);
            } else {
                assert_eq!(mode(&p), 0o600, "{}", p.display());
                checked += 1;
            }
        }
    }
    assert_eq!(mode(&target.join("innkeep.sqlite3")), 0o600);
    assert!(checked >= 1);
    // A backup of a restored installation (with the earlier backup's configuration kept in
    // from-backup/) restores too.
    assert!(target.join("from-backup/config/innkeep.toml").exists());
    let again = home.join("again.backup");
    with_config(&target, &again);
    let third = home.join("third");
    run_ok(&third, &["restore", again.to_str().unwrap()]);
    assert!(third.join("from-backup/config/innkeep.toml").exists());
    assert!(
        third
            .join("from-backup/earlier/config/innkeep.toml")
            .exists()
    );
    run_ok(&third, &["users", "list"]);
}
