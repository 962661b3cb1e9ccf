//! The channel manager's ARI pushes (`[channel]`): every change that moves availability,
//! prices or restrictions records an event in its own transaction, so the event feed is
//! the durable queue of change sets and `channel_sync.cursor` the only position. Each round
//! reads the events after the cursor, works out the nights they touched, reads innkeep's
//! ARI for those nights and sends it as one availability call and one restrictions call
//! (values are absolute: sending a round twice after a crash does no harm), then moves the
//! cursor. Rounds are at least [`SPACING`] apart, so a burst of bookings goes as a few
//! calls and Channex's 10 calls a minute per kind are never reached; a 429 pauses a minute,
//! a refusal (a wrong key) is kept in words for the health page and tried again later.
//! The first round, and one after `innkeep channel sync --full`, sends the whole horizon.
//! Each round first reads the booking feed: every revision is applied in its own
//! transaction (`service::channel_bookings`) and acknowledged only after that commit; one
//! that must wait (a room type not mapped) stays unacknowledged and is said on the health
//! page.
//! Once caught up, and every 6 hours after, it reads the channel manager's ARI back over the
//! horizon and compares it night by night (`innkeep channel check` does it at once).

use std::time::Duration;

use crate::channel::{Call, Pushed};
use crate::config::channel::ChannelConfig;
use crate::domain::channel::{Difference, compare};
use crate::service::channel_bookings::{self, Applied};
use crate::service::{Services, channel, channel_mapping, channel_sync};

/// The least time between two rounds (Channex: "combine into 1 api call each 6 seconds").
const SPACING: Duration = Duration::from_secs(6);
/// Events read per round.
const BATCH: usize = 2000;
/// How long to wait after a 429 or a refusal.
const PAUSE: Duration = Duration::from_secs(60);
/// How often an idle pusher looks again without a change.
const IDLE: Duration = Duration::from_secs(30);
/// How often a caught-up pusher reads the channel manager's ARI back to compare.
const READ_BACK: Duration = Duration::from_secs(6 * 3600);

/// The pusher for `[channel]`.
pub struct Pusher {
    svc: Services,
    cfg: ChannelConfig,
    agent: ureq::Agent,
    /// Rooms in service per room type when last looked at (rooms record no events).
    rooms: std::sync::Mutex<Option<Vec<(String, i64)>>>,
}

impl Pusher {
    /// A pusher to the channel manager in `cfg`.
    pub fn new(svc: Services, cfg: ChannelConfig) -> Pusher {
        let agent = crate::outbound::agent(Duration::from_secs(60), "channel manager")
            .build()
            .new_agent();
        Pusher {
            svc,
            cfg,
            agent,
            rooms: std::sync::Mutex::new(None),
        }
    }

    /// Sends `call`: the status and body, or why there was none.
    async fn send(&self, call: Call) -> Result<(u16, String), String> {
        let (agent, cfg) = (self.agent.clone(), self.cfg.clone());
        tokio::task::spawn_blocking(move || channel_mapping::send(&agent, &cfg, &call))
            .await
            .map_err(|e| e.to_string())?
    }

    /// The room types whose rooms in service changed since the last look (a room out of
    /// order or back, one added): their availability goes over the whole horizon.
    async fn rooms_changed(&self) -> Result<Vec<String>, String> {
        let now = channel_sync::rooms_in_service(&self.svc)
            .await
            .map_err(|e| e.operator_message())?;
        let before = self.rooms.lock().ok().and_then(|r| r.clone());
        let changed = match before {
            Some(before) => now
                .iter()
                .filter(|t| !before.contains(t))
                .map(|(id, _)| id.clone())
                .collect(),
            None => Vec::new(),
        };
        if let Ok(mut held) = self.rooms.lock() {
            *held = Some(now);
        }
        Ok(changed)
    }

    /// Sends `calls` in order: the warnings, or how long to pause (a 429, a refusal).
    async fn push(&self, calls: Vec<Call>) -> Result<Result<Vec<String>, Duration>, String> {
        let mut warnings = Vec::new();
        for call in calls {
            let (status, body) = self.send(call).await?;
            match self.cfg.adapter().pushed(status, &body) {
                Pushed::Done => {}
                Pushed::Warned(w) => warnings.extend(w),
                Pushed::Slow => {
                    self.failed("the channel manager asked innkeep to slow down; it sends again in a minute".into()).await;
                    return Ok(Err(PAUSE));
                }
                Pushed::Refused(why) => {
                    self.failed(why).await;
                    return Ok(Err(PAUSE));
                }
                Pushed::Retry(why) => return Err(why),
            }
        }
        Ok(Ok(warnings))
    }

    /// Reads the booking feed to its end: each revision applied once, then acknowledged;
    /// how many were applied now. The read's time is the last booking's when it took one.
    pub async fn pull(&self) -> Result<usize, String> {
        let mut taken = 0;
        let mut held: Option<String> = None;
        // Acknowledged revisions leave the feed, so page one again is the next page; a page
        // of only held revisions, or one shorter than a full page, ends the read (a
        // revision that arrives after it is taken by the next round).
        for _ in 0..50 {
            let (status, body) = self
                .send(self.cfg.adapter().feed(&self.cfg.property_id))
                .await?;
            if status != 200 {
                return Err(match self.cfg.adapter().pushed(status, &body) {
                    Pushed::Refused(why) | Pushed::Retry(why) => why,
                    _ => format!("the channel manager answered {status} to the booking feed"),
                });
            }
            let revisions = self.cfg.adapter().revisions(&body)?;
            let last_page = revisions.len() < self.cfg.adapter().feed_page();
            let mut acked = 0;
            for rev in revisions {
                let id = rev.id.clone();
                match channel_bookings::apply(&self.svc, self.cfg.clone(), rev)
                    .await
                    .map_err(|e| e.operator_message())?
                {
                    Applied::Held(why) => {
                        held = Some(why);
                        continue;
                    }
                    Applied::Done(what) => {
                        taken += 1;
                        tracing::info!(revision = %id, %what, "a booking revision was applied");
                    }
                    Applied::Already(_) => {}
                }
                match self.send(self.cfg.adapter().ack(&id)).await? {
                    (200, _) => acked += 1,
                    (status, _) => {
                        return Err(format!(
                            "the channel manager answered {status} to the acknowledgement of booking revision {id}"
                        ));
                    }
                }
            }
            if acked == 0 || last_page {
                break;
            }
        }
        // Each booking applied recorded the read's time and cleared its problem in its own
        // transaction, moments ago: with at least one taken and none held, there is nothing
        // left to record, and a commit (often an fsync of its own) is saved on every round
        // that brought a booking.
        if taken == 0 || held.is_some() {
            channel_sync::pull_done(&self.svc, held)
                .await
                .map_err(|e| e.operator_message())?;
        }
        Ok(taken)
    }

    /// One round: bookings taken, then what is owed sent; how long to wait before the next.
    pub async fn round(&self) -> Result<Duration, String> {
        if let Err(why) = self.pull().await {
            let why = format!("taking bookings from the channel manager failed: {why}");
            tracing::warn!(%why);
            channel_sync::pull_done(&self.svc, Some(why))
                .await
                .map_err(|e| e.operator_message())?;
        }
        let rooms = self.rooms_changed().await?;
        if !rooms.is_empty() {
            let calls = channel_sync::rooms_due(&self.svc, self.cfg.clone(), rooms)
                .await
                .map_err(|e| e.operator_message())?;
            if let Err(pause) = self.push(calls).await? {
                // Looked at again after the pause.
                if let Ok(mut held) = self.rooms.lock() {
                    *held = None;
                }
                return Ok(pause);
            }
        }
        let due = channel::due(&self.svc, self.cfg.clone(), BATCH)
            .await
            .map_err(|e| e.operator_message())?;
        let Some(due) = due else {
            return Ok(IDLE);
        };
        let warnings = match self.push(due.calls.clone()).await? {
            Ok(w) => w,
            Err(pause) => return Ok(pause),
        };
        if !warnings.is_empty() {
            tracing::warn!(
                warnings = warnings.len(),
                "the channel manager dropped some values"
            );
        }
        channel_sync::pushed(&self.svc, &due, warnings)
            .await
            .map_err(|e| e.operator_message())?;
        tracing::info!(
            full = due.full,
            calls = due.calls.len(),
            "ARI pushed to the channel manager"
        );
        Ok(SPACING)
    }

    /// Reads back what the channel manager holds over the horizon and compares it with
    /// innkeep night by night; records and answers the differences.
    pub async fn check(&self) -> Result<Vec<Difference>, String> {
        let (ours, from, to) = channel_sync::horizon(&self.svc, self.cfg.clone())
            .await
            .map_err(|e| e.operator_message())?;
        let property = &self.cfg.property_id;
        let a = self.cfg.adapter();
        let read = |call: Call| async move {
            match self.send(call).await? {
                (200, body) => Ok(body),
                (status, body) => Err(match self.cfg.adapter().pushed(status, &body) {
                    Pushed::Refused(why) | Pushed::Retry(why) => why,
                    _ => format!("the channel manager answered {status}"),
                }),
            }
        };
        let rooms = a.availability_read(&read(a.read_availability(property, from, to)).await?)?;
        let plans = a.restrictions_read(&read(a.read_restrictions(property, from, to)).await?)?;
        let found = compare(&ours.rooms, &rooms, &ours.plans, &plans);
        channel_sync::checked(&self.svc, &found)
            .await
            .map_err(|e| e.operator_message())?;
        Ok(found)
    }

    async fn failed(&self, why: String) {
        tracing::warn!(%why, "pushing to the channel manager failed");
        if let Err(e) = channel_sync::failed(&self.svc, why).await {
            tracing::warn!(error = %e, "recording the channel manager's problem failed");
        }
    }

    /// Runs rounds until the task is aborted: after a push, the next comes [`SPACING`]
    /// later; with nothing owed, at the next change (or after [`IDLE`]).
    pub async fn run(self) {
        let mut commits = self.svc.db().commits();
        let mut pause = Duration::from_secs(1);
        let mut checked: Option<std::time::Instant> = None;
        loop {
            let seen = commits.borrow_and_update().events;
            match self.round().await {
                Ok(wait) => {
                    pause = Duration::from_secs(1);
                    if wait != IDLE {
                        // After a push (more may wait) or a pause: go again after it.
                        tokio::time::sleep(wait).await;
                        continue;
                    }
                    if checked.is_none_or(|at| at.elapsed() > READ_BACK) {
                        checked = Some(std::time::Instant::now());
                        match self.check().await {
                            Ok(found) if found.is_empty() => {}
                            Ok(found) => tracing::warn!(
                                nights = found.len(),
                                first = %found[0].said(),
                                "the channel manager holds other ARI than innkeep; `innkeep channel sync --full` sends it all again"
                            ),
                            Err(e) => {
                                self.failed(format!(
                                    "reading the channel manager's ARI back failed: {e}"
                                ))
                                .await
                            }
                        }
                    }
                    super::events_after(&mut commits, seen, IDLE).await;
                }
                Err(e) => {
                    self.failed(e).await;
                    pause = (pause * 2).min(PAUSE);
                    tokio::time::sleep(pause).await;
                }
            }
        }
    }
}
