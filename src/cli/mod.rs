//! The command line: `innkeep serve`, `migrate`, `config check`, `openapi`, the
//! administration's commands, `backup`, `restore`, `numbering`, `setup` and `doctor`.
//!
//! Every command takes `--data-dir` (or `INNKEEP_DATA_DIR`) and `--config` (or
//! `INNKEEP_CONFIG`); commands meant for scripts take `--json`.

mod admin;
mod backup;
mod compliance;
mod doctor;
mod doctor_files;
mod owner;
mod privacy;
mod queue;
mod serve;
mod setup;
mod setup_ask;
mod setup_compliance;

pub use admin::{ClientsCommand, DevicesCommand, KeysCommand, UsersCommand};
pub use backup::NumberingCommand;
pub use compliance::{ComplianceCommand, SubmissionsCommand};
pub use privacy::GuestsCommand;
pub use queue::{JobsCommand, WebhooksCommand};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{self, Flags, Loaded};
use crate::db;

/// innkeep: the property-management system for small hotels.
#[derive(Debug, Parser)]
#[command(name = "innkeep", version, about, long_about = None)]
pub struct Cli {
    /// Where the database lives (default: the per-user data directory).
    #[arg(long, global = true, env = "INNKEEP_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// A TOML config file (default: innkeep.toml in the data directory, if present).
    #[arg(long, global = true, env = "INNKEEP_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the server (creates and migrates the database on first start).
    Serve {
        /// Address to listen on, such as 127.0.0.1:8080.
        #[arg(long, value_name = "ADDR")]
        listen: Option<SocketAddr>,
    },
    /// Create or upgrade the database schema, then exit.
    Migrate {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Inspect the configuration.
    Config {
        /// What to do with it.
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Print the OpenAPI document.
    Openapi,
    /// OAuth clients: applications, integrations, kiosks.
    Clients {
        /// What to do.
        #[command(subcommand)]
        command: ClientsCommand,
    },
    /// Staff members who sign in.
    Users {
        /// What to do.
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Kiosks waiting for approval (device flow).
    Devices {
        /// What to do.
        #[command(subcommand)]
        command: DevicesCommand,
    },
    /// The server's token signing keys.
    Keys {
        /// What to do.
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// Webhook endpoints.
    Webhooks {
        /// What to do.
        #[command(subcommand)]
        command: WebhooksCommand,
    },
    /// The job queue (webhook deliveries, submissions).
    Jobs {
        /// What to do.
        #[command(subcommand)]
        command: JobsCommand,
    },
    /// National compliance: code tables and the manual registration file.
    Compliance {
        /// What to do.
        #[command(subcommand)]
        command: ComplianceCommand,
    },
    /// Submissions to national authorities (guest registration, fiscal receipts).
    Submissions {
        /// What to do.
        #[command(subcommand)]
        command: SubmissionsCommand,
    },
    /// Write one file with everything a new PC needs (the database, keys, configuration,
    /// certificates), while the server keeps serving; verified before it is kept.
    Backup {
        /// Where to write it, such as /media/usb/innkeep-2026-11-25.backup.
        file: PathBuf,
        #[command(flatten)]
        secret: backup::Secret,
        /// Encrypt to this age recipient (age1…) instead of a passphrase. Repeatable.
        #[arg(long = "recipient", value_name = "AGE1…")]
        recipients: Vec<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Put a backup in place of the data directory (the server must be stopped): verified
    /// first, the current directory kept aside, invoices on hold until confirmed.
    Restore {
        /// The backup file.
        file: PathBuf,
        #[command(flatten)]
        secret: backup::Secret,
        /// For a backup encrypted to a recipient: the age identity file that opens it.
        #[arg(long, value_name = "FILE")]
        identity: Option<PathBuf>,
    },
    /// Invoice numbering: where each series stands, and confirming it after a restore.
    Numbering {
        /// What to do.
        #[command(subcommand)]
        command: NumberingCommand,
    },
    /// A guest's data: export everything about them, or erase them (GDPR).
    Guests {
        /// What to do.
        #[command(subcommand)]
        command: GuestsCommand,
    },
    /// The first run: the property, room types and rooms, the first admin, compliance.
    Setup(setup::SetupArgs),
    /// Checks that all is well: disk, permissions, clock, backups, jobs, deadlines,
    /// certificate, webhooks; exit code 1 when something needs attention.
    Doctor {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// `innkeep config …`
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Check the configuration and print what is in effect.
    Check {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

impl Cli {
    fn flags(&self) -> Flags {
        Flags {
            data_dir: self.data_dir.clone(),
            config_file: self.config.clone(),
            listen: match &self.command {
                Command::Serve { listen } => *listen,
                _ => None,
            },
            system_file: cfg!(unix).then(|| PathBuf::from(config::SYSTEM_CONFIG)),
        }
    }
}

fn load(cli: &Cli) -> Result<Loaded, String> {
    config::load(&cli.flags(), std::env::vars()).map_err(|e| e.to_string())
}

/// Runs the command line; the exit code says whether it worked.
pub fn run(cli: Cli) -> ExitCode {
    let acts_on_data = !matches!(
        cli.command,
        Command::Openapi | Command::Config { .. } | Command::Restore { .. }
    );
    if acts_on_data
        && let Ok(l) = load(&cli)
        && let Some(owner) = owner::other_owner(&l.data_dir)
    {
        return match owner::rerun_as(owner) {
            Ok(code) => {
                if matches!(cli.command, Command::Setup(_)) && code == ExitCode::SUCCESS {
                    owner::start_service();
                }
                code
            }
            Err(msg) => {
                eprintln!("innkeep: {msg}");
                ExitCode::FAILURE
            }
        };
    }
    let result = match &cli.command {
        Command::Openapi => {
            use std::io::Write;
            // A closed pipe (`innkeep openapi | head`) is not an error worth a panic.
            let _ = writeln!(std::io::stdout(), "{}", crate::api::spec_json());
            Ok(())
        }
        Command::Config {
            command: ConfigCommand::Check { json },
        } => load(&cli).and_then(|l| config_check(&l, *json)),
        Command::Migrate { json } => load(&cli).and_then(|l| migrate(&l, *json)),
        Command::Serve { .. } => load(&cli).and_then(|l| serve::run(&l)),
        Command::Clients { command } => load(&cli).and_then(|l| admin::clients(&l, command)),
        Command::Users { command } => load(&cli).and_then(|l| admin::users(&l, command)),
        Command::Devices { command } => load(&cli).and_then(|l| admin::devices(&l, command)),
        Command::Keys { command } => load(&cli).and_then(|l| admin::keys(&l, command)),
        Command::Webhooks { command } => load(&cli).and_then(|l| queue::webhooks(&l, command)),
        Command::Jobs { command } => load(&cli).and_then(|l| queue::jobs(&l, command)),
        Command::Compliance { command } => {
            load(&cli).and_then(|l| compliance::compliance(&l, command))
        }
        Command::Submissions { command } => {
            load(&cli).and_then(|l| compliance::submissions(&l, command))
        }
        Command::Backup {
            file,
            secret,
            recipients,
            json,
        } => load(&cli).and_then(|l| {
            let seal = secret.seal(recipients)?;
            backup::backup(&l, file, seal.as_ref(), *json)
        }),
        Command::Restore {
            file,
            secret,
            identity,
        } => load(&cli).and_then(|l| {
            let key = secret.key(identity.clone())?;
            backup::restore(&l, file, key.as_ref())
        }),
        Command::Numbering { command } => load(&cli).and_then(|l| backup::numbering(&l, command)),
        Command::Guests { command } => load(&cli).and_then(|l| privacy::guests(&l, command)),
        Command::Doctor { json } => load(&cli).and_then(|l| doctor::run(&l, *json)),
        Command::Setup(args) => load(&cli).and_then(|l| setup::run(&l, &cli.flags(), args)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("innkeep: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// The fiscal certificate, loaded as the server would: (subject, expiry, days left).
fn fiscal_certificate(l: &Loaded) -> Result<Option<serde_json::Value>, String> {
    let f = &l.config.compliance.fiscal;
    if f.scheme == config::FiscalSchemeName::None {
        return Ok(None);
    }
    let c = crate::compliance::fiscal_credentials(f)?;
    let days = (c.not_after - chrono::Utc::now()).num_days();
    Ok(Some(serde_json::json!({
        "subject": c.subject,
        "issuer": c.issuer,
        "serial": c.serial,
        "not_after": crate::clock::format_instant(c.not_after),
        "days_left": days,
    })))
}

fn config_check(l: &Loaded, json: bool) -> Result<(), String> {
    let file = l.file.as_ref().map(|f| f.display().to_string());
    let certificate = fiscal_certificate(l)?;
    let warnings = l.config.compliance.fiscal.warnings();
    if json {
        let out = serde_json::json!({
            "ok": true,
            "data_dir": l.data_dir,
            "file": file,
            "own_file": l.own_file,
            "environment": l.env_keys,
            "config": l.config,
            "fiscal_certificate": certificate,
            "warnings": warnings,
        });
        println!("{out}");
    } else {
        println!("Configuration is valid.");
        println!("data directory: {}", l.data_dir.display());
        println!("config file:    {}", file.as_deref().unwrap_or("(none)"));
        if let Some(own) = &l.own_file {
            println!("and beneath it: {}", own.display());
        }
        if !l.env_keys.is_empty() {
            println!("environment:    {}", l.env_keys.join(", "));
        }
        println!("listen:         {}", l.config.server.listen);
        println!("log level:      {}", l.config.log.level);
        let r = &l.config.compliance.registration;
        match r.scheme {
            config::RegistrationSchemeName::None => println!("registration:   none"),
            config::RegistrationSchemeName::ItAlloggiati => println!(
                "registration:   it-alloggiati{} as {} at {} (password and ws_key set)",
                if r.dry_run {
                    " (dry run: Test, not Send)"
                } else {
                    ""
                },
                r.username,
                r.endpoint
            ),
        }
        let f = &l.config.compliance.fiscal;
        match &certificate {
            None => println!("fiscal:         none"),
            Some(c) => {
                println!(
                    "fiscal:         hr-cis at {} (OIB {}, premises {}, device {}, operator {})",
                    f.endpoint, f.oib, f.premises, f.device, f.operator_oib
                );
                println!("certificate:    {}", c["subject"].as_str().unwrap_or(""));
                println!(
                    "expires:        {} ({} days left)",
                    c["not_after"].as_str().unwrap_or(""),
                    c["days_left"]
                );
                if c["days_left"].as_i64().unwrap_or(0) < 30 {
                    eprintln!(
                        "warning: the fiscal certificate expires within 30 days; order a new one from FINA"
                    );
                }
            }
        }
        for w in &warnings {
            eprintln!("warning: {w}");
        }
    }
    Ok(())
}

fn migrate(l: &Loaded, json: bool) -> Result<(), String> {
    crate::app::prepare_data_dir(&l.data_dir).map_err(|e| e.operator_message())?;
    let path = l.data_dir.join(db::DB_FILE);
    let mut conn = db::open_writable(&path).map_err(|e| e.operator_message())?;
    let before = db::migration_status(&conn).map_err(|e| e.operator_message())?;
    let after = db::migrate(&mut conn).map_err(|e| e.operator_message())?;
    if json {
        println!(
            "{}",
            serde_json::json!({"database": path, "from_version": before.applied, "to_version": after.applied})
        );
    } else if before.applied == after.applied {
        println!(
            "{}: already at schema version {}.",
            path.display(),
            after.applied
        );
    } else {
        println!(
            "{}: migrated from schema version {} to {}.",
            path.display(),
            before.applied,
            after.applied
        );
    }
    Ok(())
}
