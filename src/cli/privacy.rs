//! `innkeep guests export ID` and `innkeep guests erase ID`: a guest's rights over their data
//! (GDPR), from a terminal. The same use cases as the admin pages.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Subcommand;

use super::admin::with_services;
use crate::config::Loaded;
use crate::service::privacy;

/// `innkeep guests …`
#[derive(Debug, Subcommand)]
pub enum GuestsCommand {
    /// Everything innkeep holds about one guest, as JSON (GDPR art. 15 and 20).
    Export {
        /// The guest (`gst_…`).
        id: String,
        /// Write it to this file (owner-only) instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Erase a guest (GDPR art. 17): the record is anonymised; what the law keeps is named.
    Erase {
        /// The guest (`gst_…`).
        id: String,
        /// Do not ask "are you sure" (needed without a terminal).
        #[arg(long)]
        yes: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `innkeep guests …`.
pub fn guests(l: &Loaded, cmd: &GuestsCommand) -> Result<(), String> {
    match cmd {
        GuestsCommand::Export { id, output } => {
            let id = id.clone();
            let doc = with_services(l, Default::default(), async |svc, p| {
                privacy::export(svc, p, id).await
            })?;
            let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
            match output {
                None => println!("{text}"),
                Some(file) => {
                    crate::durable::write_private(file, text.as_bytes())
                        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
                    eprintln!(
                        "Everything about {} {} is in {} (readable by you only: it is personal data).",
                        doc["guest"]["first_name"].as_str().unwrap_or(""),
                        doc["guest"]["last_name"].as_str().unwrap_or(""),
                        file.display()
                    );
                }
            }
            Ok(())
        }
        GuestsCommand::Erase { id, yes, json } => {
            if !yes {
                if !std::io::stdin().is_terminal() {
                    return Err("erasing cannot be undone: add --yes to confirm".into());
                }
                let sure = dialoguer::Confirm::new()
                    .with_prompt(format!("Erase guest {id}? This cannot be undone"))
                    .default(false)
                    .interact()
                    .map_err(|e| e.to_string())?;
                if !sure {
                    return Err("Nothing was changed.".into());
                }
            }
            let id = id.clone();
            let done = with_services(l, Default::default(), async |svc, p| {
                privacy::erase(svc, p, id).await
            })?;
            if *json {
                println!(
                    "{}",
                    serde_json::to_value(&done).map_err(|e| e.to_string())?
                );
                return Ok(());
            }
            println!(
                "Guest {} is erased: name, contact details, birth data, document, address and \
                 notes are gone, and {} audit-trail entries keep only who changed what and when.",
                done.guest_id, done.history_entries
            );
            if done.kept.is_empty() {
                println!("Nothing about them has to be kept.");
            } else {
                println!("The law keeps these, with the guest's data as they were issued or sent:");
                for k in &done.kept {
                    println!("  {} until {}: {}", k.what, k.until, k.why);
                }
            }
            Ok(())
        }
    }
}
