//! A disk that loses power: the model the durable writes are checked against.
//!
//! Like a real disk behind the page cache, it keeps two states: what programs see and what is
//! on the platters. A file's data reaches the platters when the file is flushed; a directory's
//! entries (new names, renames) when the directory is flushed, and, as ext4 with delayed
//! allocation and LazyFS's power-loss runs show, a rename may also reach them on its own,
//! before the renamed file's data. [`Model::cut`] throws away everything that had not
//! reached the platters in that worst order: renames kept, unflushed data lost.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::Disk;

/// A file: its data in memory and on the platters (`None`: nothing flushed yet).
#[derive(Debug, Clone, Default)]
struct Inode {
    cached: Vec<u8>,
    flushed: Option<Vec<u8>>,
}

#[derive(Debug, Default)]
struct State {
    inodes: Vec<Inode>,
    names: HashMap<PathBuf, usize>,
}

/// A disk whose power can be cut.
#[derive(Debug, Default)]
pub struct Model {
    state: Mutex<State>,
}

impl Model {
    /// A disk with the file `path` already on the platters, holding `bytes`.
    pub fn with(path: &Path, bytes: &[u8]) -> Model {
        let m = Model::default();
        if let Ok(mut s) = m.state.lock() {
            s.inodes.push(Inode {
                cached: bytes.to_vec(),
                flushed: Some(bytes.to_vec()),
            });
            s.names.insert(path.to_path_buf(), 0);
        }
        m
    }

    /// The power goes and comes back: every name stays where it was last put (the worst
    /// case), and every file holds only what was flushed (empty when nothing was).
    pub fn cut(&self) {
        if let Ok(mut s) = self.state.lock() {
            for inode in &mut s.inodes {
                inode.cached = inode.flushed.clone().unwrap_or_default();
            }
        }
    }
}

fn missing(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, path.display().to_string())
}

impl Disk for Model {
    fn create(&self, path: &Path, bytes: &[u8], _private: bool) -> io::Result<()> {
        let mut s = self
            .state
            .lock()
            .map_err(|_| io::Error::other("poisoned"))?;
        s.inodes.push(Inode {
            cached: bytes.to_vec(),
            flushed: None,
        });
        let n = s.inodes.len() - 1;
        s.names.insert(path.to_path_buf(), n);
        Ok(())
    }

    fn sync_file(&self, path: &Path) -> io::Result<()> {
        let mut s = self
            .state
            .lock()
            .map_err(|_| io::Error::other("poisoned"))?;
        let n = *s.names.get(path).ok_or_else(|| missing(path))?;
        let data = s.inodes[n].cached.clone();
        s.inodes[n].flushed = Some(data);
        Ok(())
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        let mut s = self
            .state
            .lock()
            .map_err(|_| io::Error::other("poisoned"))?;
        let n = s.names.remove(from).ok_or_else(|| missing(from))?;
        s.names.insert(to.to_path_buf(), n);
        Ok(())
    }

    fn sync_dir(&self, _dir: &Path) -> io::Result<()> {
        Ok(())
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let s = self
            .state
            .lock()
            .map_err(|_| io::Error::other("poisoned"))?;
        let n = *s.names.get(path).ok_or_else(|| missing(path))?;
        Ok(s.inodes[n].cached.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_durable_write_survives_the_cut_and_a_bare_rename_does_not() {
        let path = Path::new("/d/feed.mark");
        let disk = Model::with(path, b"old");
        super::super::write_on(&disk, path, b"new", false).unwrap();
        disk.cut();
        assert_eq!(disk.read(path).unwrap(), b"new");
        // What the feed's mark did before: written and renamed into place without a flush.
        let tmp = Path::new("/d/feed.mark.tmp");
        disk.create(tmp, b"newer", false).unwrap();
        disk.rename(tmp, path).unwrap();
        disk.cut();
        assert_eq!(
            disk.read(path).unwrap(),
            b"",
            "the torn rename the model stands for"
        );
    }
}
