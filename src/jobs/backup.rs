//! The daily backup, run by the queue: the same verified file as `innkeep backup`, named by
//! the day (`innkeep-2026-11-25.backup`) in `[backup] dir`, then only the newest `keep` of
//! them are kept. The copy runs on the blocking pool; the server keeps serving meanwhile.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;

use super::{Handler, blocking};
use crate::backup::crypt::Seal;
use crate::backup::{self, Sources};
use crate::db::Db;
use crate::domain::enums::JobKind;
use crate::service::backups;
use crate::store::jobs::Job;

/// What the daily backup copies, and where it goes.
pub struct Plan {
    /// The data directory.
    pub data_dir: PathBuf,
    /// The configuration file, when there is one.
    pub config: Option<PathBuf>,
    /// The certificates the configuration names.
    pub certificates: Vec<PathBuf>,
    /// Where backups go.
    pub dir: PathBuf,
    /// How many to keep.
    pub keep: usize,
    /// How they are sealed.
    pub seal: Option<Seal>,
}

/// The backup handler.
pub struct BackupHandler {
    plan: Arc<Plan>,
}

impl BackupHandler {
    /// A handler following `plan`.
    pub fn new(plan: Plan) -> BackupHandler {
        BackupHandler {
            plan: Arc::new(plan),
        }
    }
}

/// Deletes all but the newest `keep` daily backups in `dir` (their names sort by day).
fn prune(dir: &Path, keep: usize) -> std::io::Result<usize> {
    let mut days: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with("innkeep-") && name.ends_with(".backup")
        })
        .collect();
    days.sort();
    let old = days.len().saturating_sub(keep);
    for p in &days[..old] {
        std::fs::remove_file(p)?;
    }
    Ok(old)
}

/// Takes the backup of `day` under `plan`.
fn take(plan: &Plan, day: &str) -> Result<(), String> {
    std::fs::create_dir_all(&plan.dir)
        .map_err(|e| format!("cannot write in {}: {e}", plan.dir.display()))?;
    let file = plan.dir.join(format!("innkeep-{day}.backup"));
    let src = Sources {
        data_dir: &plan.data_dir,
        config: plan.config.as_deref(),
        certificates: plan.certificates.clone(),
    };
    let m = backup::write(&src, &file, plan.seal.as_ref(), &mut |_, _| {})?;
    let pruned = prune(&plan.dir, plan.keep).map_err(|e| e.to_string())?;
    tracing::info!(file = %file.display(), invoices = m.rows.get("invoices").copied().unwrap_or(0), pruned, "daily backup written and verified");
    Ok(())
}

impl Handler for BackupHandler {
    fn kind(&self) -> &'static str {
        JobKind::Backup.as_str()
    }

    fn run<'a>(&'a self, db: &'a Db, job: Job) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            let plan = self.plan.clone();
            let day = job
                .subject_id
                .strip_prefix(backups::SUBJECT)
                .unwrap_or(&job.subject_id)
                .to_string();
            let outcome = blocking(move || take(&plan, &day))
                .await
                .unwrap_or_else(|e| Err(e.to_string()));
            if let Err(why) = &outcome {
                tracing::error!(error = %why, "the daily backup failed; it is tried again in an hour");
            }
            if let Err(e) = backups::record(db, job.id, job.attempts, outcome).await {
                tracing::error!(error = %e, "recording the daily backup failed");
            }
        })
    }
}
