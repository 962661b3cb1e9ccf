//! `innkeep numbering show|confirm`: where each invoice series stands, and confirming the
//! next numbers after a restore (by hand as SERIES=NEXT, or `--from-hub`).

use clap::Subcommand;
use serde_json::json;

use crate::config::Loaded;
use crate::service::numbering;

/// `innkeep numbering …`
#[derive(Debug, Subcommand)]
pub enum NumberingCommand {
    /// Show each invoice series' last number and whether issuing is on hold.
    Show {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// After a restore: confirm the next number of every series, as SERIES=NEXT (for example
    /// 2026=143 when the last invoice on paper is 2026-000142), and lift the hold.
    Confirm {
        /// SERIES=NEXT, one per series.
        #[arg(required_unless_present = "from_hub", value_name = "SERIES=NEXT")]
        next: Vec<String>,
        /// Take the next numbers from the group's hub (`[hub]`): past the highest number
        /// it has seen in each series.
        #[arg(long, conflicts_with = "next")]
        from_hub: bool,
    },
}

/// `innkeep numbering …`
pub fn numbering(l: &Loaded, command: &NumberingCommand) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = crate::app::open_db(&l.data_dir).map_err(|e| e.operator_message())?;
        let svc = crate::service::Services::new(db, crate::compliance::Compliance::default());
        let p = crate::model::Principal::system(crate::model::Actor::cli());
        let standing = match command {
            NumberingCommand::Show { json } => {
                let s = numbering::standing(&svc, &p).await.map_err(|e| e.operator_message())?;
                if *json {
                    println!(
                        "{}",
                        json!({"held_since": s.hold.as_ref().map(|h| &h.0),
                               "reason": s.hold.as_ref().map(|h| &h.1),
                               "series": s.series.iter().map(|(n, l)| json!({"series": n, "last": l})).collect::<Vec<_>>()})
                    );
                    return Ok(());
                }
                s
            }
            NumberingCommand::Confirm { from_hub: true, .. } => {
                let hub = tokio::task::spawn_blocking({
                    let l = l.clone();
                    move || super::numbering_hub::fetch(&l)
                })
                .await
                .map_err(|e| e.to_string())??;
                let local = svc.db().read(crate::store::numbering::series).await.map_err(|e| e.operator_message())?;
                let pairs = super::numbering_hub::next_numbers(&local, &hub);
                println!(
                    "The hub last heard from this property at {}. Its highest numbers:",
                    hub.last_contact.as_deref().unwrap_or("(never)")
                );
                for (s, _, number) in &hub.series {
                    println!("  series {s}: {number}");
                }
                println!("Invoices issued while the hub could not be reached are only on paper: check the last one.");
                confirmed(&svc, &p, pairs).await?
            }
            NumberingCommand::Confirm { next, .. } => {
                let mut pairs = Vec::new();
                for n in next {
                    let parsed = n
                        .split_once('=')
                        .and_then(|(s, v)| Some((s.trim().to_string(), v.trim().parse().ok()?)));
                    match parsed {
                        Some(pair) => pairs.push(pair),
                        None => return Err(format!("{n:?} is not SERIES=NEXT, such as 2026=143")),
                    }
                }
                confirmed(&svc, &p, pairs).await?
            }
        };
        match &standing.hold {
            Some((since, reason)) => println!("Invoices are ON HOLD since {since}: {reason}."),
            None => println!("Invoices are issued normally."),
        }
        for (s, last) in &standing.series {
            println!("  series {s}: last number {last}, next {}", last + 1);
        }
        Ok(())
    })
}

/// Confirms `pairs` (series, next number) and lifts the hold, or says which series is wrong.
async fn confirmed(
    svc: &crate::service::Services,
    p: &crate::model::Principal,
    pairs: Vec<(String, i64)>,
) -> Result<numbering::Standing, String> {
    let s = numbering::confirm(svc, p, pairs).await.map_err(|e| {
        let fields: Vec<String> = e
            .errors
            .iter()
            .map(|f| format!("series {} {}", f.field, f.message))
            .collect();
        if fields.is_empty() {
            e.operator_message()
        } else {
            fields.join("; ")
        }
    })?;
    println!("Confirmed. Invoices are issued again.");
    Ok(s)
}
