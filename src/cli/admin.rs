//! `innkeep clients|users|devices|keys`: administration against the database directly, so
//! it works whether or not the server is running (SQLite serialises the writers).

use crate::domain::limits::{MAX_RATE, Rate};
use std::io::{BufRead, IsTerminal};

use clap::Subcommand;
use serde_json::json;

use crate::config::Loaded;
use crate::db::Db;
use crate::error::AppError;
use crate::service::oauth::{self, Approver};

/// `innkeep clients …`
#[derive(Debug, Subcommand)]
pub enum ClientsCommand {
    /// Register an OAuth client; prints its client_id and, once, its client_secret.
    Create {
        /// Who it is, for people (such as "Channel manager").
        #[arg(long)]
        name: String,
        /// Space-separated scopes it may be granted, such as "guests:read reservations:read".
        #[arg(long)]
        scopes: String,
        /// Flow it uses: client_credentials (default), authorization_code or device. Repeatable.
        #[arg(long = "grant", value_name = "GRANT")]
        grants: Vec<String>,
        /// Exact redirect URI for authorization_code. Repeatable.
        #[arg(long = "redirect-uri", value_name = "URI")]
        redirect_uris: Vec<String>,
        /// Give an authorization_code or device client a secret too.
        #[arg(long)]
        confidential: bool,
        #[command(flatten)]
        limit: RateArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Change a client's own request rate limit.
    Update {
        /// The client_id (`cli_…`).
        client_id: String,
        #[command(flatten)]
        limit: RateArgs,
        /// Drop the client's own limit: it gets `[limits]` from the configuration again.
        #[arg(long, conflicts_with_all = ["rate", "burst"])]
        default_rate: bool,
    },
    /// List clients.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a client: its tokens stop working at once.
    Revoke {
        /// The client_id (`cli_…`).
        client_id: String,
    },
}

/// `innkeep users …`
#[derive(Debug, Subcommand)]
pub enum UsersCommand {
    /// Add a staff member (admin, manager, front_desk or housekeeping).
    Create {
        /// Login name.
        #[arg(long)]
        username: String,
        /// Role, which decides what they may grant.
        #[arg(long)]
        role: String,
        /// Read the password from standard input; otherwise one is generated and printed once.
        #[arg(long)]
        password_stdin: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// List staff members.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Disable a staff member: no more sign-ins, and their tokens stop working.
    Disable {
        /// Login name.
        username: String,
    },
}

/// A client's own token bucket; without it the client gets `[limits]`.
#[derive(Debug, clap::Args)]
pub struct RateArgs {
    /// Sustained requests per second this client may make.
    #[arg(long, value_name = "N")]
    rate: Option<u32>,
    /// Requests it may make at once after a quiet spell (default: twice --rate).
    #[arg(long, value_name = "N", requires = "rate")]
    burst: Option<u32>,
}

impl RateArgs {
    fn rate(&self) -> Result<Option<Rate>, String> {
        let Some(per_second) = self.rate else {
            return Ok(None);
        };
        let burst = self
            .burst
            .unwrap_or_else(|| per_second.saturating_mul(2).min(MAX_RATE));
        Rate::new(per_second, burst)
            .map(Some)
            .map_err(|e| format!("--rate/--burst: {}", e.message))
    }
}

fn describe_rate(rate: Option<Rate>) -> String {
    rate.map_or("default".into(), |r| {
        format!("{}/s, burst {}", r.per_second, r.burst)
    })
}

/// `innkeep devices …`
#[derive(Debug, Subcommand)]
pub enum DevicesCommand {
    /// Approve the kiosk showing USER_CODE.
    Approve {
        /// The code on the device, such as BDKT-QWMX.
        user_code: String,
        /// Deny instead of approving.
        #[arg(long)]
        deny: bool,
    },
}

/// `innkeep keys …`
#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Make a new signing key; the old one keeps verifying until its tokens expire.
    Rotate,
}

/// Runs `f` with the use cases' context and innkeep's command line as the acting principal.
pub(super) fn with_services<T>(
    l: &Loaded,
    compliance: crate::compliance::Compliance,
    f: impl AsyncFnOnce(&crate::service::Services, &crate::model::Principal) -> Result<T, AppError>,
) -> Result<T, String> {
    with_db(l, async |db| {
        let svc = crate::service::Services::new(db.clone(), compliance);
        let cli = crate::model::Principal::system(crate::model::Actor::cli());
        f(&svc, &cli).await
    })
}

pub(super) fn with_db<T>(
    l: &Loaded,
    f: impl AsyncFnOnce(&Db) -> Result<T, AppError>,
) -> Result<T, String> {
    crate::durable::prepare_data_dir(&l.data_dir).map_err(|e| e.operator_message())?;
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let dir = l.data_dir.clone();
        let db = tokio::task::spawn_blocking(move || crate::app::open_db(&dir))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.operator_message())?;
        let out = f(&db).await.map_err(|e| {
            let fields: Vec<String> = e
                .errors
                .iter()
                .map(|f| format!("{} {}", f.field, f.message))
                .collect();
            if fields.is_empty() {
                e.operator_message()
            } else {
                fields.join("; ")
            }
        });
        tokio::task::spawn_blocking(move || drop(db))
            .await
            .map_err(|e| e.to_string())?;
        out
    })
}

/// Runs `innkeep clients …`.
pub fn clients(l: &Loaded, cmd: &ClientsCommand) -> Result<(), String> {
    match cmd {
        ClientsCommand::Create {
            name,
            scopes,
            grants,
            redirect_uris,
            confidential,
            limit,
            json,
        } => {
            let rate = limit.rate()?;
            let c = with_db(l, async |db| {
                oauth::create_client(db, name, scopes, grants, redirect_uris, *confidential, rate)
                    .await
            })?;
            if *json {
                println!(
                    "{}",
                    json!({"client_id": c.client.id, "client_secret": c.secret, "name": c.client.name,
                           "scopes": c.client.scopes, "grants": c.client.grants, "redirect_uris": c.client.redirect_uris,
                           "rate_limit": c.client.rate})
                );
            } else {
                println!("client_id:     {}", c.client.id);
                match &c.secret {
                    Some(s) => println!("client_secret: {s}\n(shown only now; store it safely)"),
                    None => println!("public client: no secret (it uses PKCE or the device flow)"),
                }
                println!("scopes:        {}", c.client.scopes);
                println!("grants:        {}", c.client.grants.join(", "));
                println!("rate limit:    {}", describe_rate(c.client.rate));
            }
            Ok(())
        }
        ClientsCommand::List { json } => {
            let all = with_db(l, async |db| oauth::list_clients(db).await)?;
            if *json {
                let v: Vec<_> = all
                    .iter()
                    .map(|c| json!({"client_id": c.id, "name": c.name, "scopes": c.scopes, "grants": c.grants,
                                    "redirect_uris": c.redirect_uris, "confidential": c.secret_hash.is_some(),
                                    "created_at": c.created_at, "revoked_at": c.revoked_at, "rate_limit": c.rate}))
                    .collect();
                println!("{}", serde_json::Value::Array(v));
            } else {
                for c in all {
                    let state = if c.revoked_at.is_some() {
                        "revoked"
                    } else {
                        "active"
                    };
                    println!(
                        "{}  {state:7}  {:24}  {}  [{}]  rate: {}",
                        c.id,
                        c.name,
                        c.scopes,
                        c.grants.join(","),
                        describe_rate(c.rate)
                    );
                }
            }
            Ok(())
        }
        ClientsCommand::Update {
            client_id,
            limit,
            default_rate,
        } => {
            let rate = limit.rate()?;
            if rate.is_none() && !default_rate {
                return Err("say what to change: --rate N [--burst N], or --default-rate".into());
            }
            with_db(l, async |db| {
                oauth::set_client_rate(db, client_id, rate).await
            })?;
            println!("{client_id}: rate limit {}.", describe_rate(rate));
            Ok(())
        }
        ClientsCommand::Revoke { client_id } => {
            with_db(l, async |db| oauth::revoke_client(db, client_id).await)?;
            println!("Revoked {client_id}.");
            Ok(())
        }
    }
}

fn read_password() -> Result<String, String> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

/// Runs `innkeep users …`.
pub fn users(l: &Loaded, cmd: &UsersCommand) -> Result<(), String> {
    match cmd {
        UsersCommand::Create {
            username,
            role,
            password_stdin,
            json,
        } => {
            let (password, generated) = if *password_stdin {
                if std::io::stdin().is_terminal() {
                    eprintln!("Type the password and press Enter:");
                }
                (read_password()?, false)
            } else {
                (crate::auth::secrets::token("pw")[3..27].to_string(), true)
            };
            let u = with_db(l, async |db| {
                oauth::create_user(db, username, role, &password).await
            })?;
            if *json {
                let pw = generated.then_some(password);
                println!(
                    "{}",
                    json!({"id": u.id, "username": u.username, "role": u.role.as_str(), "password": pw})
                );
            } else {
                println!("Added {} ({}).", u.username, u.role.as_str());
                if generated {
                    println!("password: {password}\n(shown only now; give it to them safely)");
                }
            }
            Ok(())
        }
        UsersCommand::List { json } => {
            let all = with_db(l, async |db| oauth::list_users(db).await)?;
            if *json {
                let v: Vec<_> = all
                    .iter()
                    .map(|u| {
                        json!({"id": u.id, "username": u.username, "role": u.role.as_str(),
                                    "created_at": u.created_at, "disabled_at": u.disabled_at})
                    })
                    .collect();
                println!("{}", serde_json::Value::Array(v));
            } else {
                for u in all {
                    let state = if u.disabled_at.is_some() {
                        "disabled"
                    } else {
                        "active"
                    };
                    println!("{:24}  {:12}  {state}", u.username, u.role.as_str());
                }
            }
            Ok(())
        }
        UsersCommand::Disable { username } => {
            with_db(l, async |db| oauth::disable_user(db, username).await)?;
            println!("Disabled {username}.");
            Ok(())
        }
    }
}

/// Runs `innkeep devices …`.
pub fn devices(l: &Loaded, cmd: &DevicesCommand) -> Result<(), String> {
    let DevicesCommand::Approve { user_code, deny } = cmd;
    let (granted, client) = with_db(l, async |db| {
        let svc = crate::service::Services::new(db.clone(), Default::default());
        let waiting = oauth::waiting_device(&svc, user_code).await?;
        let granted = oauth::decide_device(&svc, user_code, Approver::Cli, !*deny).await?;
        Ok((granted, waiting.map(|w| w.client_name).unwrap_or_default()))
    })?;
    if *deny {
        println!("Denied the device {user_code} ({client}).");
    } else {
        println!("Approved the device {user_code} ({client}) with: {granted}.");
    }
    Ok(())
}

/// Runs `innkeep keys …`.
pub fn keys(l: &Loaded, cmd: &KeysCommand) -> Result<(), String> {
    let KeysCommand::Rotate = cmd;
    let dir = l.data_dir.clone();
    let kid = with_db(l, async |db| {
        crate::service::oauth::keys::rotate(db, &dir).await
    })?;
    println!("New signing key {kid}. The previous key stays in the JWKS until its tokens expire.");
    Ok(())
}
