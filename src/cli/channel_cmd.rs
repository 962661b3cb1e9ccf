//! `innkeep channel …`: the channel manager's side, from the command line.

use clap::Subcommand;

use super::Loaded;

/// What to do with the channel manager.
#[derive(Debug, Subcommand)]
pub enum ChannelCommand {
    /// Where the pushes stand: the last push, the last problem, the last read-back.
    Status,
    /// Read the channel manager's availability, prices and restrictions back and compare
    /// them with innkeep's, night by night (exit code 1 when they differ).
    Check,
    /// Send availability, prices and restrictions again.
    Sync {
        /// The whole horizon (`[channel] horizon_days`, 500 by default), at the running
        /// server's next round, rather than only what changed.
        #[arg(long)]
        full: bool,
    },
}

/// `innkeep channel …`
pub fn channel(l: &Loaded, command: &ChannelCommand) -> Result<(), String> {
    let Some(cfg) = l.config.channel.clone() else {
        return Err("no channel manager is configured: add a [channel] section (see the book's Configuration page)".into());
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = crate::app::open_db(&l.data_dir).map_err(|e| e.operator_message())?;
        match command {
            ChannelCommand::Sync { full: false } => Err(
                "innkeep sends every change by itself; `innkeep channel sync --full` sends everything again".into(),
            ),
            ChannelCommand::Sync { full: true } => {
                crate::service::channel_sync::ask_full(&db)
                    .await
                    .map_err(|e| e.operator_message())?;
                println!("A full sync is asked for: the running server sends it at its next round (within a minute).");
                Ok(())
            }
            ChannelCommand::Check => {
                let svc = crate::service::Services::new(db, crate::compliance::Compliance::default());
                let found = crate::jobs::channel::Pusher::new(svc, cfg).check().await?;
                if found.is_empty() {
                    println!("The channel manager holds exactly innkeep's availability, prices and restrictions.");
                    return Ok(());
                }
                for d in found.iter().take(20) {
                    println!("{}", d.said());
                }
                Err(format!(
                    "{} nights differ; `innkeep channel sync --full` sends everything again",
                    found.len()
                ))
            }
            ChannelCommand::Status => {
                let s = crate::service::channel_sync::state(&db)
                    .await
                    .map_err(|e| e.operator_message())?;
                println!("last push: {}", s.last_push_at.as_deref().unwrap_or("never"));
                println!("pushes: {}", s.pushes);
                if let Some(at) = s.full_requested_at {
                    println!("full sync asked for at {at}, not yet sent");
                }
                println!("last problem: {}", s.last_error.as_deref().unwrap_or("none"));
                match s.checked {
                    Some((at, 0, _)) => println!("last read-back: {at}, no difference"),
                    Some((at, n, first)) => println!("last read-back: {at}, {n} nights differ: {first}"),
                    None => println!("last read-back: never"),
                }
                Ok(())
            }
        }
    })
}
