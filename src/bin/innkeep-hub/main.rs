//! `innkeep-hub`: a hotel group's hub. It gathers every property's events into one
//! PostgreSQL database, the group's read model (`docs/hub-schema.md`), pulling each
//! property's `GET /v1/events` or accepting what a property pushes. A separate binary, so
//! the front desk's does not carry a PostgreSQL client.
//!
//! `innkeep-hub [--config FILE] serve | sync | status | migrate | config check`, each
//! with `--json` where a script reads the answer.

mod config;
mod pull;
mod push;
mod source;
mod status;
mod store;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::json;

/// A hotel group's hub: every property's events in one PostgreSQL read model.
#[derive(Parser)]
#[command(name = "innkeep-hub", version)]
struct Cli {
    /// The configuration file.
    #[arg(long, global = true, env = "INNKEEP_HUB_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Keep every property's records current until stopped (SIGTERM or Ctrl-C).
    Serve,
    /// Bring every pull-mode property up to date once, then stop.
    Sync {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Where the hub stands with each property: position, lag, last error, last contact.
    Status {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Create or update the hub's tables in PostgreSQL.
    Migrate {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The configuration.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Write the manual pages into DIR (the Debian package's build does).
    #[command(hide = true)]
    Man {
        /// Where to write innkeep-hub.1 and one page per command.
        dir: PathBuf,
    },
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Check the configuration file and say what is wrong, key by key.
    Check {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// A failure: the sentence for a person, and the problems by key when it was the file.
struct Failure {
    message: String,
    problems: Vec<config::Problem>,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure {
            message,
            problems: Vec::new(),
        }
    }
}

fn load(cli: &Cli) -> Result<config::Config, Failure> {
    let file = config::path(cli.config.as_deref());
    config::load(&file).map_err(|problems| Failure {
        message: format!("the configuration in {} has problems", file.display()),
        problems,
    })
}

/// Connects and migrates: every command that touches the database starts here.
async fn open(c: &config::Config) -> Result<tokio_postgres::Client, String> {
    let mut client = store::connect(&c.database.url).await?;
    store::migrate(&mut client).await?;
    store::register(&client, c).await?;
    Ok(client)
}

async fn sync(c: &config::Config) -> Result<(serde_json::Value, bool), String> {
    open(c).await?;
    let mut out = Vec::new();
    let mut all_ok = true;
    for p in c.properties.iter().filter(|p| p.mode == config::Mode::Pull) {
        let mut puller = pull::Puller::new(c, p).await?;
        let line = match puller.catch_up().await {
            Ok((events, resyncs)) => {
                json!({"name": puller.name(), "ok": true, "events": events, "resyncs": resyncs})
            }
            Err(e) => {
                all_ok = false;
                json!({"name": puller.name(), "ok": false, "error": e})
            }
        };
        out.push(line);
    }
    Ok((json!({ "properties": out }), all_ok))
}

async fn serve(c: config::Config) -> Result<(), String> {
    open(&c).await?;
    let mut tasks = tokio::task::JoinSet::new();
    for p in c.properties.iter().filter(|p| p.mode == config::Mode::Pull) {
        let puller = pull::Puller::new(&c, p).await?;
        tasks.spawn(puller.run(c.pull.interval()));
    }
    if let Some(push) = &c.push {
        let (config, listen) = (c.clone(), push.listen.clone());
        tasks.spawn(async move {
            if let Err(e) = push::serve(config, listen).await {
                tracing::error!(error = %e, "the push endpoint failed");
            }
        });
    }
    tracing::info!(properties = c.properties.len(), "innkeep-hub is running");
    shutdown().await;
    tracing::info!(
        "stopping: every batch already committed is kept; the next start reads on from there"
    );
    tasks.shutdown().await;
    Ok(())
}

async fn shutdown() {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term => {}
    }
}

async fn run(cli: Cli) -> Result<(), Failure> {
    match &cli.command {
        Command::Man { dir } => {
            use clap::CommandFactory;
            std::fs::create_dir_all(dir)
                .and_then(|()| clap_mangen::generate_to(Cli::command(), dir))
                .map_err(|e| format!("cannot write the manual pages to {}: {e}", dir.display()))?;
            Ok(())
        }
        Command::Config {
            command: ConfigCommand::Check { json },
        } => {
            let c = load(&cli)?;
            if *json {
                println!("{}", json!({"ok": true, "config": c}));
            } else {
                println!(
                    "The configuration is valid: {} properties, database {}.",
                    c.properties.len(),
                    c.database.url
                );
            }
            Ok(())
        }
        Command::Migrate { json } => {
            let c = load(&cli)?;
            let mut client = store::connect(&c.database.url).await?;
            let applied = store::migrate(&mut client).await?;
            if *json {
                println!("{}", json!({"ok": true, "applied": applied}));
            } else if applied.is_empty() {
                println!("The hub's schema is up to date.");
            } else {
                println!("Applied migrations {applied:?}.");
            }
            Ok(())
        }
        Command::Status { json } => {
            let c = load(&cli)?;
            let client = open(&c).await?;
            let names: Vec<String> = c.properties.iter().map(|p| p.name.clone()).collect();
            let all = status::read(&client, &names).await?;
            if *json {
                println!("{}", json!({"ok": true, "properties": all}));
            } else {
                print!("{}", status::render(&all));
            }
            Ok(())
        }
        Command::Sync { json } => {
            let c = load(&cli)?;
            let (out, all_ok) = sync(&c).await?;
            if *json {
                println!("{}", json!({"ok": all_ok, "properties": out["properties"]}));
            } else {
                if out["properties"].as_array().is_none_or(|a| a.is_empty()) {
                    println!(
                        "No property is in pull mode: nothing to read (properties in push mode send by themselves)."
                    );
                }
                for p in out["properties"].as_array().into_iter().flatten() {
                    match p["error"].as_str() {
                        Some(e) => println!("{}: failed: {e}", p["name"].as_str().unwrap_or("")),
                        None => println!(
                            "{}: {} events ingested{}",
                            p["name"].as_str().unwrap_or(""),
                            p["events"],
                            if p["resyncs"].as_array().is_some_and(|r| !r.is_empty()) {
                                ", after re-synchronising from the lists"
                            } else {
                                ""
                            }
                        ),
                    }
                }
            }
            if all_ok {
                Ok(())
            } else {
                Err(
                    "some properties could not be brought up to date (see above)"
                        .to_string()
                        .into(),
                )
            }
        }
        Command::Serve => {
            let c = load(&cli)?;
            serve(c).await.map_err(Failure::from)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let json = matches!(
        cli.command,
        Command::Sync { json: true }
            | Command::Status { json: true }
            | Command::Migrate { json: true }
            | Command::Config {
                command: ConfigCommand::Check { json: true }
            }
    );
    {
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        // Whatever INNKEEP_HUB_LOG says, credentials and guests' data never reach the log.
        let _ = tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_env("INNKEEP_HUB_LOG")
                    .unwrap_or_else(|_| "warn,innkeep_hub=info".into()),
            )
            .finish()
            .with(innkeep::outbound::never_secrets())
            .try_init();
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("innkeep-hub: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if json {
                println!(
                    "{}",
                    json!({"ok": false, "error": f.message, "problems": f.problems})
                );
            } else {
                eprintln!("innkeep-hub: {}", f.message);
                for p in &f.problems {
                    eprintln!("  {}: {}", p.key, p.message);
                }
            }
            ExitCode::FAILURE
        }
    }
}
