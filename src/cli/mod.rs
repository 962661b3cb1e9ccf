//! The command line: `innkeep serve`, `migrate`, `config check`, `openapi`, the
//! administration's commands, `backup`, `restore`, `numbering`, `setup` and `doctor`.
//!
//! Every command takes `--data-dir` (or `INNKEEP_DATA_DIR`) and `--config` (or
//! `INNKEEP_CONFIG`); commands meant for scripts take `--json`.

mod admin;
mod backup;
mod channel_cmd;
mod compliance;
mod config_cmd;
mod doctor;
mod doctor_days;
mod doctor_einvoice;
mod doctor_files;
mod doctor_totals;
mod export;
mod import;
mod mail_cmd;
mod numbering_cmd;
mod numbering_hub;
mod owner;
mod privacy;
mod queue;
mod restore_db;
mod restore_stage;
mod serve;
mod setup;
mod setup_ask;
mod setup_compliance;
mod setup_seller;

pub use admin::{ClientsCommand, DevicesCommand, KeysCommand, UsersCommand};
pub use channel_cmd::ChannelCommand;
pub use compliance::{ComplianceCommand, SubmissionsCommand};
pub use mail_cmd::MailCommand;
pub use numbering_cmd::NumberingCommand;
pub use privacy::GuestsCommand;
pub use queue::{JobsCommand, WebhooksCommand};

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{self, Flags, Loaded};

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
        /// A database restored from continuous replication (`litestream restore -o FILE`),
        /// newer than the backup: it replaces the backup's database, and the backup gives
        /// the signing keys, configuration and certificates the replica does not carry.
        #[arg(long, value_name = "FILE")]
        database: Option<PathBuf>,
    },
    /// The channel manager: where its pushes stand, and a full sync.
    Channel {
        /// What to do.
        #[command(subcommand)]
        command: ChannelCommand,
    },
    /// Guests' e-mail: send a test message through the `[mail]` relay.
    Mail {
        /// What to do.
        #[command(subcommand)]
        command: MailCommand,
    },
    /// Invoice numbering: where each series stands, and confirming it after a restore.
    Numbering {
        /// What to do.
        #[command(subcommand)]
        command: NumberingCommand,
    },
    /// Moving in: guests or reservations from another system's CSV file, all or nothing.
    Import {
        /// What the file holds.
        what: ImportWhat,
        /// The CSV file (UTF-8; comma- or semicolon-separated; the first line names the columns).
        file: PathBuf,
        /// The file's own name for one of innkeep's columns, FILE_COLUMN=COLUMN (repeatable).
        #[arg(long = "map", value_name = "FILE_COLUMN=COLUMN")]
        map: Vec<String>,
        /// Check every line and report the bad ones; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Everything of one kind as CSV (guests and reservations in the import's columns).
    Export {
        /// What to write.
        what: export::ExportWhat,
        /// Write to this file (owner-only) instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// A guest's data: export everything about them, or erase them (GDPR).
    Guests {
        /// What to do.
        #[command(subcommand)]
        command: GuestsCommand,
    },
    /// The first run: the property, room types and rooms, the first admin, compliance.
    Setup(Box<setup::SetupArgs>),
    /// Checks that all is well: disk, permissions, clock, backups, jobs, deadlines,
    /// certificate, webhooks; exit code 1 when something needs attention.
    Doctor {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// First count the nights sold again from the reservations, where their running
        /// totals (read by the occupancy report and the day close) disagree; safe while
        /// the server runs.
        #[arg(long)]
        recount: bool,
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

/// What `innkeep import` reads.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ImportWhat {
    /// Guests (import them first).
    Guests,
    /// Reservations of guests imported before.
    Reservations,
}

impl ImportWhat {
    fn kind(self) -> crate::service::import::Kind {
        match self {
            ImportWhat::Guests => crate::service::import::Kind::Guests,
            ImportWhat::Reservations => crate::service::import::Kind::Reservations,
        }
    }
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
    // Only root reads the configuration here (to find the data directory's owner); every
    // command reads it again itself.
    if acts_on_data
        && owner::is_root()
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
            let _ = std::io::stdout().write_all(crate::api::committed_spec());
            Ok(())
        }
        Command::Config {
            command: ConfigCommand::Check { json },
        } => load(&cli).and_then(|l| config_cmd::config_check(&l, *json)),
        Command::Migrate { json } => load(&cli).and_then(|l| config_cmd::migrate(&l, *json)),
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
            database,
        } => load(&cli).and_then(|l| {
            let key = secret.key(identity.clone())?;
            backup::restore(&l, file, key.as_ref(), database.as_deref())
        }),
        Command::Channel { command } => load(&cli).and_then(|l| channel_cmd::channel(&l, command)),
        Command::Mail { command } => load(&cli).and_then(|l| mail_cmd::mail(&l, command)),
        Command::Numbering { command } => {
            load(&cli).and_then(|l| numbering_cmd::numbering(&l, command))
        }
        Command::Import {
            what,
            file,
            map,
            dry_run,
            json,
        } => load(&cli).and_then(|l| import::run(&l, what.kind(), file, map, *dry_run, *json)),
        Command::Export { what, output } => {
            load(&cli).and_then(|l| export::run(&l, *what, output.as_ref()))
        }
        Command::Guests { command } => load(&cli).and_then(|l| privacy::guests(&l, command)),
        Command::Doctor { json, recount } => {
            load(&cli).and_then(|l| doctor::run(&l, *json, *recount))
        }
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
