//! `innkeep webhooks list` and `innkeep jobs list|retry`: the queue for operators.

use clap::Subcommand;
use serde_json::json;

use super::admin::with_db;
use crate::config::Loaded;
use crate::domain::enums::JobStatus;
use crate::service;

/// `innkeep webhooks …`
#[derive(Debug, Subcommand)]
pub enum WebhooksCommand {
    /// List webhook endpoints, with why any was disabled.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `innkeep jobs …`
#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// List jobs (webhook deliveries, submissions), newest first.
    List {
        /// Only jobs in this state.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(JobStatus::NAMES))]
        status: Option<String>,
        /// At most this many.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Put failed jobs back in the queue, due now (a running server picks them up).
    Retry {
        /// The job id; without it, every failed job.
        id: Option<i64>,
    },
}

/// Runs `innkeep webhooks …`.
pub fn webhooks(l: &Loaded, cmd: &WebhooksCommand) -> Result<(), String> {
    let WebhooksCommand::List { json } = cmd;
    let all = with_db(l, async |db| db.read(crate::store::webhooks::all).await)?;
    if *json {
        let v: Vec<_> = all
            .iter()
            .map(|e| {
                let w = &e.webhook;
                json!({"id": w.id, "url": w.url, "events": w.events, "enabled": w.enabled,
                       "disabled_reason": w.disabled_reason, "failing_since": e.failing_since})
            })
            .collect();
        println!("{}", serde_json::Value::Array(v));
        return Ok(());
    }
    if all.is_empty() {
        println!("No webhook endpoints.");
    }
    for e in all {
        let w = &e.webhook;
        let state = match (&w.disabled_reason, w.enabled) {
            (_, true) => "enabled".to_string(),
            (Some(why), false) => format!("disabled: {why}"),
            (None, false) => "disabled".to_string(),
        };
        println!("{}  {}  [{}]  {state}", w.id, w.url, w.events.join(","));
    }
    Ok(())
}

/// Runs `innkeep jobs …`.
pub fn jobs(l: &Loaded, cmd: &JobsCommand) -> Result<(), String> {
    match cmd {
        JobsCommand::List {
            status,
            limit,
            json,
        } => {
            let (status, limit) = (status.clone(), *limit);
            let all = with_db(l, async |db| service::jobs::list(db, status, limit).await)?;
            if *json {
                let v: Vec<_> = all
                    .iter()
                    .map(|j| json!({"id": j.id, "kind": j.kind, "subject_id": j.subject_id, "status": j.status,
                                    "attempts": j.attempts, "run_at": j.run_at, "last_error": j.last_error,
                                    "created_at": j.created_at}))
                    .collect();
                println!("{}", serde_json::Value::Array(v));
                return Ok(());
            }
            if all.is_empty() {
                println!("No jobs.");
            }
            for j in all {
                println!(
                    "{:>6}  {:8}  {:8}  attempts {:<2}  due {}  {}  {}",
                    j.id,
                    j.kind,
                    j.status,
                    j.attempts,
                    j.run_at,
                    j.subject_id,
                    j.last_error.unwrap_or_default()
                );
            }
            Ok(())
        }
        JobsCommand::Retry { id } => {
            let id = *id;
            let n = with_db(l, async |db| service::jobs::retry(db, id).await)?;
            println!("{n} failed job(s) queued again.");
            Ok(())
        }
    }
}
