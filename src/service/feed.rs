//! The event feed's identity across restores (API.md section 8).
//!
//! `feed_id` lives in the database; the data directory keeps a mark file (`feed.mark`)
//! with the feed id and the newest sequence this installation is known to have handed out,
//! refreshed every second while serving and at shutdown. At start-up the two are compared:
//! when the database's newest sequence is lower than the mark (a restore from an older
//! copy), or the database carries another feed id, or a database that already has events
//! arrives in a data directory without a mark, the sequence could have gone backwards, and
//! the feed gets a new id. The mark is written durably (flushed, renamed into place, its
//! directory flushed: `crate::durable`), so a power cut leaves the last whole mark, never an
//! empty one that would give every integration a needless resynchronisation.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::db::Db;
use crate::durable::{Disk, RealDisk};
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
    disk: Arc<dyn Disk>,
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
        let (db_feed, (_, newest)) = db
            .read(|c| Ok((store::events::feed_id(c)?, store::events::extent(c)?)))
            .await?;
        let (mut marker, fresh) = Marker::decide(
            Arc::new(RealDisk),
            data_dir.join(MARK_FILE),
            &db_feed,
            newest,
        );
        let feed_id = match fresh {
            None => db_feed,
            Some(fresh) => {
                let f = fresh.clone();
                db.write(move |tx| store::events::set_feed_id(tx, &f))
                    .await?;
                fresh
            }
        };
        marker
            .write(Mark {
                feed_id: feed_id.clone(),
                sequence: newest,
            })
            .await?;
        Ok((marker, feed_id))
    }

    /// Reads the mark at `path` on `disk` and compares it with the database's feed id and
    /// newest sequence: the marker, and a new feed id when the database does not continue it.
    fn decide(
        disk: Arc<dyn Disk>,
        path: PathBuf,
        db_feed: &str,
        newest: i64,
    ) -> (Marker, Option<String>) {
        let mark = disk
            .read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Mark>(&bytes).ok());
        let fresh = (!continues(mark.as_ref(), db_feed, newest)).then(|| {
            let fresh = new_feed_id();
            tracing::warn!(
                old = %db_feed, new = %fresh, newest,
                mark = ?mark,
                "the database does not continue this data directory's event feed (restored or replaced?): the feed gets a new feed_id, and clients holding the old one are told to resynchronise"
            );
            fresh
        });
        let marker = Marker {
            path,
            last: None,
            disk,
        };
        (marker, fresh)
    }

    /// Records the database's current feed id and newest sequence, if they changed.
    pub async fn refresh(&mut self, db: &Db) -> AppResult<()> {
        let (feed_id, (_, sequence)) = db
            .read(|c| Ok((store::events::feed_id(c)?, store::events::extent(c)?)))
            .await?;
        self.write(Mark { feed_id, sequence }).await
    }

    /// Writes `mark` durably (off the async workers: it waits for the disk).
    async fn write(&mut self, mark: Mark) -> AppResult<()> {
        if self.last.as_ref() == Some(&mark) {
            return Ok(());
        }
        let text = serde_json::to_vec(&mark).map_err(AppError::internal)?;
        let (disk, path) = (self.disk.clone(), self.path.clone());
        tokio::task::spawn_blocking(move || crate::durable::write_on(&*disk, &path, &text, false))
            .await
            .map_err(AppError::internal)?
            .map_err(|e| {
                AppError::internal(format!("cannot write {}: {e}", self.path.display()))
            })?;
        self.last = Some(mark);
        Ok(())
    }
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

    #[tokio::test]
    async fn a_power_cut_keeps_the_feed_and_an_older_database_still_gets_a_new_one() {
        use crate::durable::power_cut::Model;
        let path = PathBuf::from("/data/feed.mark");
        let disk = Arc::new(Model::default());
        let (mut marker, fresh) = Marker::decide(disk.clone(), path.clone(), "f1", 0);
        assert_eq!(fresh, None, "a new installation keeps its feed");
        for sequence in 1..=5 {
            let m = mark("f1", sequence).unwrap();
            marker.write(m).await.unwrap();
        }
        disk.cut();
        let (_, fresh) = Marker::decide(disk.clone(), path.clone(), "f1", 7);
        assert_eq!(fresh, None, "after the cut the same feed goes on");
        let (_, fresh) = Marker::decide(disk, path, "f1", 3);
        assert!(
            fresh.is_some(),
            "a copied-in older database gets a new feed_id"
        );
    }
}
