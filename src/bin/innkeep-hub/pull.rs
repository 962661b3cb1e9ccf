//! Pull mode: the hub reads a property's feed from its stored position and commits each
//! page with the position it leads to. A position the property no longer honours (409
//! `feed_reset`, 410 `events_expired`, 409 `cursor_ahead`) or none at all (first contact)
//! starts a resynchronisation: the feed's head is read first, then every list, and the
//! property's records and its new position replace the old in one transaction; the events
//! after the head then replay whatever changed while the lists were read (an older
//! snapshot never overwrites a newer one).

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio_postgres::Client;

use crate::config::{Config, Property};
use crate::source::{Feed, Source};
use crate::store::{self, Ingested, Position};

/// What one step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Ingested this many events; `more` if the property has further ones.
    Ingested { events: usize, more: bool },
    /// Nothing new.
    Idle,
    /// Re-synchronised from the lists, for this reason.
    Resynced(String),
}

/// How often the rooms (which have no events) are read again.
const ROOMS_EVERY: Duration = Duration::from_secs(600);

/// One property's reader.
pub struct Puller {
    property: Property,
    source: Arc<Source>,
    client: Client,
    page_size: u32,
    rooms_read: Option<Instant>,
}

/// Writes every page of one of the property's lists in `tx`.
async fn write_list(
    tx: &tokio_postgres::Transaction<'_>,
    source: &Arc<Source>,
    name: &str,
    list: &'static str,
) -> Result<(), String> {
    let stmt = tx
        .prepare(store::put_page(list))
        .await
        .map_err(store::said)?;
    let mut cursor: Option<String> = None;
    loop {
        let src = source.clone();
        let (page, next) = blocking(move || src.list(list, cursor.as_deref())).await?;
        tx.execute(&stmt, &[&name, &Value::Array(page)])
            .await
            .map_err(store::said)?;
        match next {
            Some(c) => cursor = Some(c),
            None => return Ok(()),
        }
    }
}

/// Runs blocking HTTP off the async workers.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| format!("the HTTP call stopped: {e}"))?
}

impl Puller {
    /// A reader for `property` writing through its own connection.
    pub async fn new(config: &Config, property: &Property) -> Result<Puller, String> {
        let client = store::connect(&config.database.url).await?;
        let timeout = Duration::from_secs(config.pull.timeout_seconds);
        Ok(Puller {
            property: property.clone(),
            source: Arc::new(Source::new(property, timeout)),
            client,
            page_size: config.pull.page_size,
            rooms_read: None,
        })
    }

    /// The property's name.
    pub fn name(&self) -> &str {
        &self.property.name
    }

    /// Reads and commits one page (or resynchronises); a failure is recorded for the
    /// status and returned.
    pub async fn step(&mut self) -> Result<Step, String> {
        let result = self.try_step().await;
        if let Err(e) = &result {
            // The failure itself is what matters; a failure to note it is logged.
            if let Err(note) = store::failed(&self.client, &self.property.name, e).await {
                tracing::warn!(property = %self.property.name, error = %note, "cannot record the failure");
            }
        }
        result
    }

    async fn try_step(&mut self) -> Result<Step, String> {
        let name = self.property.name.clone();
        let Some(at) = store::position(&self.client, &name).await? else {
            return self
                .resync("first contact: the hub had nothing of this property")
                .await;
        };
        if self.rooms_read.is_none_or(|t| t.elapsed() > ROOMS_EVERY) {
            self.refresh_rooms().await?;
        }
        let (src, feed, after, limit) = (
            self.source.clone(),
            at.feed_id.clone(),
            at.sequence,
            self.page_size,
        );
        match blocking(move || src.events(after, &feed, limit)).await? {
            Feed::Lost(reason) => self.resync(&reason).await,
            Feed::Page { data, .. } if data.is_empty() => {
                store::idle(&mut self.client, &name).await?;
                Ok(Step::Idle)
            }
            Feed::Page { data, has_more } => {
                let events = data.len();
                let batch = Value::Array(data);
                match store::ingest(&mut self.client, &name, &at, &batch, !has_more, None).await? {
                    Ingested::At(position) => {
                        tracing::debug!(property = %name, events, position, "ingested");
                        Ok(Step::Ingested {
                            events,
                            more: has_more,
                        })
                    }
                    Ingested::Elsewhere(held) => Err(format!(
                        "the hub's position for {name} moved while reading ({held:?}); is a second hub writing to this database?"
                    )),
                }
            }
        }
    }

    /// Replaces the property's records from its lists and stands at the feed's head.
    async fn resync(&mut self, reason: &str) -> Result<Step, String> {
        let name = self.property.name.clone();
        tracing::warn!(property = %name, %reason, "re-synchronising the property from its lists");
        let src = self.source.clone();
        let (feed_id, sequence) = blocking(move || src.head()).await?;
        let tx = self.client.transaction().await.map_err(store::said)?;
        store::begin_resync(&tx, &self.property).await?;
        for (list, _) in store::LISTS {
            write_list(&tx, &self.source, &name, list).await?;
        }
        let head = Position { feed_id, sequence };
        store::finish_resync(&tx, &name, &head, reason).await?;
        tx.commit().await.map_err(store::said)?;
        self.rooms_read = Some(Instant::now());
        tracing::info!(property = %name, feed_id = %head.feed_id, position = head.sequence, "re-synchronised");
        Ok(Step::Resynced(reason.to_string()))
    }

    /// Reads the rooms again (they change rarely and have no events).
    async fn refresh_rooms(&mut self) -> Result<(), String> {
        let mut rooms = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let src = self.source.clone();
            let (page, next) = blocking(move || src.list("/v1/rooms", cursor.as_deref())).await?;
            rooms.extend(page);
            match next {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        let tx = self.client.transaction().await.map_err(store::said)?;
        store::replace_rooms(&tx, &self.property.name, &Value::Array(rooms)).await?;
        tx.commit().await.map_err(store::said)?;
        self.rooms_read = Some(Instant::now());
        Ok(())
    }

    /// Steps until the property is caught up (or fails): what `innkeep-hub sync` does.
    pub async fn catch_up(&mut self) -> Result<(usize, Vec<String>), String> {
        let (mut events, mut resyncs) = (0, Vec::new());
        loop {
            match self.step().await? {
                Step::Ingested { events: n, more } => {
                    events += n;
                    if !more {
                        return Ok((events, resyncs));
                    }
                }
                Step::Idle => return Ok((events, resyncs)),
                Step::Resynced(reason) => resyncs.push(reason),
            }
        }
    }

    /// Steps for ever: at once while events wait, every `interval` when caught up, and
    /// after a failure with a growing pause (up to a minute).
    pub async fn run(mut self, interval: Duration) {
        let mut pause = interval;
        loop {
            let wait = match self.step().await {
                Ok(Step::Ingested { more: true, .. } | Step::Resynced(_)) => Duration::ZERO,
                Ok(_) => {
                    pause = interval;
                    interval
                }
                Err(e) => {
                    tracing::warn!(property = %self.property.name, error = %e, "pull failed; trying again");
                    pause = (pause * 2).min(Duration::from_secs(60));
                    pause
                }
            };
            tokio::time::sleep(wait).await;
        }
    }
}
