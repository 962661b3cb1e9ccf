//! The data directory's own `innkeep.toml`, changed by setup (the `innkeep setup` command and
//! the first-run page): settings are set by their dotted keys, the file is written
//! owner-only (it holds passwords), and can be put back exactly as it was when what follows
//! fails. Files beside it (an uploaded certificate) are written and put back the same way.

use std::path::{Path, PathBuf};

use super::{ConfigError, DATA_DIR_CONFIG, set_dotted};

/// One file as it was before an edit: its path and its bytes (`None`: it did not exist).
struct Before {
    file: PathBuf,
    bytes: Option<Vec<u8>>,
}

impl Before {
    fn of(file: PathBuf) -> Before {
        let bytes = std::fs::read(&file).ok();
        Before { file, bytes }
    }

    fn restore(&self) {
        let _ = match &self.bytes {
            Some(bytes) => crate::durable::write_private(&self.file, bytes),
            None => std::fs::remove_file(&self.file),
        };
    }
}

/// Settings to write to the data directory's own config file, not yet written.
pub struct OwnEdit {
    config: Before,
    table: toml::Table,
    changed: bool,
    beside: Vec<(Before, Vec<u8>)>,
}

impl OwnEdit {
    /// An edit of `data_dir`'s own file, starting from what it holds now.
    pub fn open(data_dir: &Path) -> Result<OwnEdit, ConfigError> {
        let config = Before::of(data_dir.join(DATA_DIR_CONFIG));
        let table = match &config.bytes {
            Some(bytes) => String::from_utf8_lossy(bytes)
                .parse()
                .map_err(|e| ConfigError(format!("{}: {e}", config.file.display())))?,
            None => toml::Table::new(),
        };
        Ok(OwnEdit {
            config,
            table,
            changed: false,
            beside: Vec::new(),
        })
    }

    /// The file written.
    pub fn file(&self) -> &Path {
        &self.config.file
    }

    /// Sets the dotted `key` to `raw` (typed as an environment value is).
    pub fn set(&mut self, key: &str, raw: &str) -> Result<(), ConfigError> {
        set_dotted(&mut self.table, key, raw)?;
        self.changed = true;
        Ok(())
    }

    /// Writes `bytes` to `file` (owner-only) along with the settings.
    pub fn put_beside(&mut self, file: PathBuf, bytes: Vec<u8>) {
        self.beside.push((Before::of(file), bytes));
        self.changed = true;
    }

    /// Whether anything is to be written.
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// Writes the files; on a failure, what was written is put back.
    pub fn write(&self) -> Result<(), ConfigError> {
        if !self.changed {
            return Ok(());
        }
        let text = toml::to_string(&self.table).map_err(|e| ConfigError(e.to_string()))?;
        let mut writes: Vec<(&Path, &[u8])> = self
            .beside
            .iter()
            .map(|(b, bytes)| (b.file.as_path(), bytes.as_slice()))
            .collect();
        writes.push((&self.config.file, text.as_bytes()));
        for (file, bytes) in writes {
            if let Err(e) = crate::durable::write_private(file, bytes) {
                self.undo();
                return Err(ConfigError(format!("cannot write {}: {e}", file.display())));
            }
        }
        Ok(())
    }

    /// Puts every file back as it was before [`OwnEdit::write`].
    pub fn undo(&self) {
        if !self.changed {
            return;
        }
        self.config.restore();
        for (before, _) in &self.beside {
            before.restore();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_then_put_back_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let own = dir.path().join(DATA_DIR_CONFIG);
        std::fs::write(&own, "[log]\nlevel = \"debug\"\n").unwrap();
        let mut edit = OwnEdit::open(dir.path()).unwrap();
        assert!(!edit.changed());
        edit.set("compliance.registration.username", "hotel1")
            .unwrap();
        edit.put_beside(dir.path().join("cert.p12"), b"secret".to_vec());
        assert!(edit.set("data_dir", "/tmp").is_err());
        edit.write().unwrap();
        let text = std::fs::read_to_string(&own).unwrap();
        assert!(text.contains("level = \"debug\"") && text.contains("username = \"hotel1\""));
        assert_eq!(
            std::fs::read(dir.path().join("cert.p12")).unwrap(),
            b"secret"
        );
        edit.undo();
        assert_eq!(
            std::fs::read_to_string(&own).unwrap(),
            "[log]\nlevel = \"debug\"\n"
        );
        assert!(!dir.path().join("cert.p12").exists());
    }
}
