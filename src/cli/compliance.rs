//! `innkeep compliance import-table|export|tables` and `innkeep submissions list|retry`.

use std::path::PathBuf;

use clap::Subcommand;

use super::admin::{with_db, with_services};
use crate::compliance::Compliance;
use crate::config::Loaded;
use crate::domain::enums::SubmissionStatus;
use crate::service::{self, PageRequest};

/// `innkeep compliance …`
#[derive(Debug, Subcommand)]
pub enum ComplianceCommand {
    /// Load an official code table by hand, replacing the loaded one: for Alloggiati Web
    /// the `;`-separated CSV `Tabella` gives (`Luoghi`, `Tipi_Documento`); for eVisitor,
    /// the offline fallback to fetching, a look-up's JSON answer (`CountryLookup`,
    /// `DocumentTtypeLookup`, `SettlementLookup`, `TTPaymentCategoryLookup2`,
    /// `ArrivalOrganisationLookup`, `OfferedServiceTypeLookup`, `BorderCrossingHRlookup`).
    ImportTable {
        /// The table's name, as listed above.
        table: String,
        /// The file.
        file: PathBuf,
    },
    /// Fetch the code tables from the registration authority now (eVisitor; innkeep also
    /// does it every day while it runs).
    FetchTables,
    /// Show the code tables loaded.
    Tables,
    /// Write a day's guest registrations as the authority's upload file (the manual
    /// fallback when the service is down).
    Export {
        /// The arrival day, YYYY-MM-DD.
        #[arg(long)]
        date: chrono::NaiveDate,
        /// Include rows already accepted.
        #[arg(long)]
        all: bool,
        /// Write here instead of to standard output.
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Check the connection to the fiscal authority (for hr-cis: CIS `echo` over the
    /// client-certificate connection) and to the e-invoice intermediary (a ping, then a query
    /// with the account's credentials).
    Echo,
}

/// `innkeep submissions …`
#[derive(Debug, Subcommand)]
pub enum SubmissionsCommand {
    /// List submissions: what is pending, and how long is left.
    List {
        /// Only this status (queued, retrying, manual_required, ...).
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(service::submissions::STATUSES))]
        status: Option<String>,
        /// Only this kind.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(service::submissions::KINDS))]
        kind: Option<String>,
        /// At most this many.
        #[arg(long, default_value_t = 200)]
        limit: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Send a submission again (see the API's retry for what each status does).
    Retry {
        /// `sub_…`
        id: String,
    },
}

/// Runs `innkeep compliance …`.
pub fn compliance(l: &Loaded, cmd: &ComplianceCommand) -> Result<(), String> {
    match cmd {
        ComplianceCommand::FetchTables => {
            let c = Compliance::configured(&l.config.compliance)?;
            let scheme = c.registration.clone();
            if !scheme.fetches_tables() {
                return Err(format!(
                    "the registration scheme {} has no tables to fetch; import them with `innkeep compliance import-table`",
                    scheme.name()
                ));
            }
            let n = with_db(l, async |db| {
                service::code_tables::refresh_tables(db, scheme, true).await
            })?;
            println!(
                "{} code tables fetched from {}.",
                n.unwrap_or(0),
                c.registration.name()
            );
            Ok(())
        }
        ComplianceCommand::ImportTable { table, file } => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let source = file.display().to_string();
            let table = table.clone();
            let n = with_db(l, async |db| {
                service::registration::import_table(db, &table, text, source).await
            })?;
            let name = crate::compliance::codes::table_name(&table)
                .or_else(|| crate::compliance::evisitor::tables::table_name(&table))
                .unwrap_or(&table);
            println!("{n} rows loaded into {name}.");
            Ok(())
        }
        ComplianceCommand::Tables => {
            let all = with_db(l, async |db| db.read(crate::store::codes::versions).await)?;
            if all.is_empty() {
                println!("No code tables loaded.");
            }
            for t in all {
                println!(
                    "{} {}: {} rows from {} at {} (sha256 {})",
                    t.scheme, t.table, t.rows, t.source, t.imported_at, t.sha256
                );
            }
            Ok(())
        }
        ComplianceCommand::Echo => {
            let c = Compliance::configured(&l.config.compliance)?;
            let intermediary = c.einvoice.intermediary();
            if c.fiscal.name() != "none" || intermediary.is_none() {
                let answer = c.fiscal.check_connection()?;
                println!("{} answered: {answer}", c.fiscal.name());
            }
            if let Some(i) = intermediary {
                let answer = i.check()?;
                println!("{}: {answer}", i.name());
            }
            Ok(())
        }
        ComplianceCommand::Export { date, all, output } => {
            let c = Compliance::configured(&l.config.compliance)?;
            let (day, all) = (*date, *all);
            let (file, n) = with_services(l, c, async |svc, p| {
                service::registration::export(svc, p, day, all).await
            })?;
            match output {
                Some(path) => {
                    std::fs::write(path, &file)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                    eprintln!("{n} record(s) written to {}.", path.display());
                }
                None => {
                    use std::io::Write;
                    let _ = std::io::stdout().write_all(file.as_bytes());
                }
            }
            Ok(())
        }
    }
}

/// Runs `innkeep submissions …`.
pub fn submissions(l: &Loaded, cmd: &SubmissionsCommand) -> Result<(), String> {
    match cmd {
        SubmissionsCommand::List {
            status,
            kind,
            limit,
            json,
        } => {
            let (statuses, kinds) = (
                status.iter().cloned().collect(),
                kind.iter().cloned().collect(),
            );
            let req = PageRequest {
                after: None,
                as_of: None,
                limit: *limit,
            };
            let (page, counts) = with_services(l, Compliance::default(), async |svc, p| {
                let page = service::submissions::list(svc, p, kinds, statuses, req).await?;
                Ok((page, service::submissions::deadlines(svc.db()).await?))
            })?;
            for c in counts {
                if c.overdue > 0 {
                    eprintln!(
                        "warning: {} {} submission(s) ({}) are past their legal deadline and not accepted",
                        c.overdue, c.kind, c.status
                    );
                }
                if c.due_soon > 0 {
                    eprintln!(
                        "warning: {} {} submission(s) ({}) must reach the authority within a day; check the connection or retry them",
                        c.due_soon, c.kind, c.status
                    );
                }
            }
            let subs: Vec<_> = page.items.into_iter().map(|(s, _)| s).collect();
            if *json {
                let v: Vec<_> = subs
                    .iter()
                    .map(poem_openapi::types::ToJSON::to_json)
                    .collect();
                println!("{}", serde_json::to_string(&v).unwrap_or_default());
                return Ok(());
            }
            if subs.is_empty() {
                println!("No submissions.");
            }
            for s in subs {
                let deadline = if s.status == SubmissionStatus::Accepted {
                    String::new()
                } else if s.overdue {
                    format!("OVERDUE since {}", s.due_at.0)
                } else if s.due_soon {
                    format!("DUE SOON: by {}", s.due_at.0)
                } else {
                    format!("due {}", s.due_at.0)
                };
                println!(
                    "{}  {}  {}  {:15}  attempts {:<2}  {deadline}  {}",
                    s.id,
                    s.kind,
                    s.subject_id,
                    s.status,
                    s.attempts,
                    s.last_error.unwrap_or_default()
                );
            }
            Ok(())
        }
        SubmissionsCommand::Retry { id } => {
            let c = Compliance::configured(&l.config.compliance)?;
            let id = id.clone();
            let s = with_services(l, c, async |svc, p| {
                service::submissions::retry(svc, p, id).await
            })?;
            println!("{} is {} again; a running server sends it.", s.id, s.status);
            Ok(())
        }
    }
}
