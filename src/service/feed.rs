//! The event feed's identity across restores (API.md section 8).
//!
//! `feed_id` lives in the database; the data directory keeps a mark file (`feed.mark`)
//! with the feed id and the newest sequence this installation is known to have handed out,
//! refreshed every second while serving and at shutdown. At start-up the two are compared:
//! when the database's newest sequence is lower than the mark (a restore from an older
//! copy), or the database carries another feed id, or a database that already has events
//! arrives in a data directory without a mark, the sequence could have gone backwards, and
//! the feed gets a new id. The mark is written without `fsync`, so only a power cut in the second
//! before a restore could hide one; a process crash cannot.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::db::Db;
use crate::error::{AppError, AppResult};
use crate::store;

/// The mark file in the data directory.
pub const MARK_FILE: &str = "feed.mark";

/// What the data directory remembers of the feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// The feed's identity.
    pub feed_id: String,
    /// The newest sequence handed out.
    pub sequence: i64,
}

/// The feed's mark file in `data_dir`.
pub struct Marker {
    path: PathBuf,
    last: Option<Mark>,
}

fn new_feed_id() -> String {
    crate::ids::new("feed")
}

/// Whether the database's feed continues the one the mark remembers.
fn continues(mark: Option<&Mark>, db_feed: &str, newest: i64) -> bool {
    match mark {
        None => newest == 0,
        Some(m) => m.feed_id == db_feed && newest >= m.sequence,
    }
}

impl Marker {
    /// Checks the database's feed against the data directory's mark, giving the feed a new
    /// id when it does not continue it, and writes a fresh mark. Returns the feed id.
    pub async fn open(db: &Db, data_dir: &Path) -> AppResult<(Marker, String)> {
        let path = data_dir.join(MARK_FILE);
        let mark = read(&path);
        let (db_feed, (_, newest)) = db
            .read(|c| Ok((store::events::feed_id(c)?, store::events::extent(c)?)))
            .await?;
        let feed_id = if continues(mark.as_ref(), &db_feed, newest) {
            db_feed
        } else {
            let fresh = new_feed_id();
            tracing::warn!(
                old = %db_feed, new = %fresh, newest,
                mark = ?mark,
                "the database does not continue this data directory's event feed (restored or replaced?): the feed gets a new feed_id, and clients holding the old one are told to resynchronise"
            );
            let f = fresh.clone();
            db.write(move |tx| store::events::set_feed_id(tx, &f))
                .await?;
            fresh
        };
        let mut marker = Marker { path, last: None };
        marker.write(Mark {
            feed_id: feed_id.clone(),
            sequence: newest,
        })?;
        Ok((marker, feed_id))
    }

    /// Records the database's current feed id and newest sequence, if they changed.
    pub async fn refresh(&mut self, db: &Db) -> AppResult<()> {
        let (feed_id, (_, sequence)) = db
            .read(|c| Ok((store::events::feed_id(c)?, store::events::extent(c)?)))
            .await?;
        self.write(Mark { feed_id, sequence })
    }

    fn write(&mut self, mark: Mark) -> AppResult<()> {
        if self.last.as_ref() == Some(&mark) {
            return Ok(());
        }
        let tmp = self.path.with_extension("mark.tmp");
        let text = serde_json::to_string(&mark).map_err(AppError::internal)?;
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &self.path))
            .map_err(|e| {
                AppError::internal(format!("cannot write {}: {e}", self.path.display()))
            })?;
        self.last = Some(mark);
        Ok(())
    }
}

fn read(path: &Path) -> Option<Mark> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(feed_id: &str, sequence: i64) -> Option<Mark> {
        Some(Mark {
            feed_id: feed_id.into(),
            sequence,
        })
    }

    #[test]
    fn a_feed_continues_only_forwards_under_the_same_id() {
        assert!(continues(None, "f1", 0));
        assert!(!continues(None, "f1", 5));
        assert!(continues(mark("f1", 5).as_ref(), "f1", 5));
        assert!(continues(mark("f1", 5).as_ref(), "f1", 9));
        assert!(!continues(mark("f1", 5).as_ref(), "f1", 4));
        assert!(!continues(mark("f1", 5).as_ref(), "f2", 9));
    }
}
