//! Configuration: defaults < the data directory's `innkeep.toml` < the `--config` file <
//! `INNKEEP_*` environment < command-line flags.
//!
//! The `--config` file is also found by itself at [`SYSTEM_CONFIG`] (the Debian package's)
//! when neither `--config` nor `--data-dir` is given. The data directory's own
//! `innkeep.toml` (the one `innkeep setup` writes) is read beneath it, key by key.
//! Environment variables name nested keys with a double underscore:
//! `INNKEEP_SERVER__LISTEN=0.0.0.0:8080` sets `[server] listen`. An unknown key, in the file
//! or the environment, is an error that names it, so typos never pass silently.
//! `INNKEEP_DATA_DIR` and `INNKEEP_CONFIG` are the flags' own variables.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub mod backup;
pub mod compliance;
pub mod desk;
pub mod einvoice;
mod einvoice_it;
pub mod fiscal;
mod fiscal_it;
pub use fiscal_it::rate_of as fiscal_rate;
pub mod channel;
pub mod hub;
pub mod mail;
pub mod own;

pub use compliance::{
    ComplianceConfig, EVISITOR_ENDPOINT, EVISITOR_TEST_ENDPOINT, RegistrationConfig,
    RegistrationSchemeName, Secret,
};
pub use einvoice::{EInvoiceConfig, EInvoiceSchemeName};
pub use fiscal::{FiscalConfig, FiscalSchemeName};

/// The system-wide configuration file of an installed innkeep.
pub const SYSTEM_CONFIG: &str = "/etc/innkeep/innkeep.toml";

/// The environment variable prefix.
pub const ENV_PREFIX: &str = "INNKEEP_";
/// Variables that the command line reads itself.
const FLAG_VARS: &[&str] = &["INNKEEP_DATA_DIR", "INNKEEP_CONFIG"];
/// The config file looked for in the data directory.
pub const DATA_DIR_CONFIG: &str = "innkeep.toml";

/// Everything innkeep reads at start-up.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Where the database lives; flags and `INNKEEP_DATA_DIR` win over this.
    pub data_dir: Option<PathBuf>,
    /// The HTTP server.
    pub server: ServerConfig,
    /// Logging.
    pub log: LogConfig,
    /// The event feed.
    pub events: EventsConfig,
    /// The OAuth 2.0 authorization server.
    pub oauth: OAuthConfig,
    /// Webhook delivery.
    pub webhooks: WebhooksConfig,
    /// National compliance schemes.
    pub compliance: ComplianceConfig,
    /// Request rate limits.
    pub limits: LimitsConfig,
    /// The front desk's sessions.
    pub desk: desk::DeskConfig,
    /// The daily backup.
    pub backup: backup::BackupConfig,
    /// The hotel group's hub (absent: none).
    pub hub: Option<hub::HubConfig>,
    /// The channel manager (absent: none).
    pub channel: Option<channel::ChannelConfig>,
    /// The SMTP relay for guests' messages (absent: innkeep sends none).
    pub mail: Option<mail::MailConfig>,
}

/// `[limits]`: the token bucket every API client gets unless it has its own
/// (`innkeep clients update --rate N --burst N`); requests without a token are counted per
/// address.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// Sustained requests per second.
    pub requests_per_second: u32,
    /// Requests that may arrive at once after a quiet spell.
    pub burst: u32,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            requests_per_second: 25,
            burst: 100,
        }
    }
}

impl LimitsConfig {
    /// The limit as a checked rate.
    pub fn rate(&self) -> Result<crate::domain::limits::Rate, String> {
        crate::domain::limits::Rate::new(self.requests_per_second, self.burst)
            .map_err(|e| format!("limits: {}", e.message))
    }
}

/// `[webhooks]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WebhooksConfig {
    /// Deliveries (and other jobs) in flight at once.
    pub workers: usize,
    /// Whether endpoints may be on private networks (a hotel LAN).
    pub allow_private: bool,
    /// Whether endpoints may be on this machine.
    pub allow_loopback: bool,
    /// An HTTP proxy for deliveries (`http://host:port`), when the hotel's network needs
    /// one. Proxy variables in the environment (`HTTP_PROXY`, ...) are ignored.
    pub proxy: Option<String>,
}

impl Default for WebhooksConfig {
    fn default() -> Self {
        Self {
            workers: 4,
            allow_private: true,
            allow_loopback: true,
            proxy: None,
        }
    }
}

/// `[oauth]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OAuthConfig {
    /// The issuer URL (`iss`); default `http://HOST:PORT` of the listen address. Set it to
    /// the address clients use when innkeep serves the LAN.
    pub issuer: Option<String>,
    /// The audience (`aud`) of access tokens.
    pub audience: String,
    /// Lifetime of access tokens.
    pub access_token_minutes: u64,
    /// A refresh token unused this long dies.
    pub refresh_idle_days: u64,
    /// A login's refresh tokens die this long after it, whatever happens.
    pub refresh_max_days: u64,
    /// Failed authentications of one client or staff member before a lockout (an address
    /// gets four times as many).
    pub throttle_failures: u32,
    /// The first lockout; each further one doubles, up to 15 minutes.
    pub throttle_lockout_seconds: u64,
}

impl Default for OAuthConfig {
    fn default() -> Self {
        Self {
            issuer: None,
            audience: "innkeep".into(),
            access_token_minutes: 15,
            refresh_idle_days: 30,
            refresh_max_days: 90,
            throttle_failures: 5,
            throttle_lockout_seconds: 60,
        }
    }
}

/// `[events]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EventsConfig {
    /// Days events are kept in the feed before they are pruned (at least 1).
    pub retention_days: u32,
}

impl Default for EventsConfig {
    fn default() -> Self {
        Self { retention_days: 30 }
    }
}

/// `[server]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Address and port to listen on.
    pub listen: SocketAddr,
    /// How long in-flight requests may run after a stop signal.
    pub shutdown_grace_seconds: u64,
    /// A PEM certificate chain: with `tls_key`, innkeep serves HTTPS only, and its cookies
    /// are `Secure`. Relative to the data directory.
    pub tls_cert: Option<PathBuf>,
    /// The certificate's PEM private key.
    pub tls_key: Option<PathBuf>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            shutdown_grace_seconds: 30,
            tls_cert: None,
            tls_key: None,
        }
    }
}

/// `[log]`
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    /// A tracing filter such as `info` or `innkeep=debug,info`.
    pub level: String,
    /// `text` for people, `json` for log collectors.
    pub format: LogFormat,
}

impl Default for LogConfig {
    fn default() -> Self {
        Self {
            level: "info".into(),
            format: LogFormat::Text,
        }
    }
}

/// Log line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// What the command line contributes.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// `--data-dir` or `INNKEEP_DATA_DIR`.
    pub data_dir: Option<PathBuf>,
    /// `--config` or `INNKEEP_CONFIG`.
    pub config_file: Option<PathBuf>,
    /// `--listen`.
    pub listen: Option<SocketAddr>,
    /// The system-wide file read when neither `--config` nor `--data-dir` is given and it
    /// exists (`/etc/innkeep/innkeep.toml`, which the Debian package installs).
    pub system_file: Option<PathBuf>,
}

/// The resolved configuration and where it came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The effective settings.
    pub config: Config,
    /// The data directory in use.
    pub data_dir: PathBuf,
    /// The config file read, if any: `--config`, the system file, or else the data
    /// directory's own `innkeep.toml`.
    pub file: Option<PathBuf>,
    /// The data directory's own `innkeep.toml` when it was read beneath `file` (the one
    /// `innkeep setup` writes).
    pub own_file: Option<PathBuf>,
    /// The environment variables that contributed.
    pub env_keys: Vec<String>,
}

/// A configuration problem, in words an operator can act on.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// The default per-user data directory.
pub fn default_data_dir() -> PathBuf {
    directories::ProjectDirs::from("", "", "innkeep")
        .map(|d| d.data_dir().to_path_buf())
        .unwrap_or_else(|| PathBuf::from("innkeep-data"))
}

/// Resolves the configuration from flags, the environment and the file.
pub fn load(
    flags: &Flags,
    env: impl IntoIterator<Item = (String, String)>,
) -> Result<Loaded, ConfigError> {
    let explicit = flags.config_file.clone().or_else(|| {
        let system = flags
            .system_file
            .as_ref()
            .filter(|_| flags.data_dir.is_none())?;
        system.exists().then(|| system.clone())
    });
    let mut table = match &explicit {
        Some(path) => read_file(path)?,
        None => toml::Table::new(),
    };
    let provisional_dir = match (&flags.data_dir, table.get("data_dir")) {
        (Some(d), _) => d.clone(),
        (None, Some(toml::Value::String(d))) => PathBuf::from(d),
        _ => default_data_dir(),
    };
    let implicit = provisional_dir.join(DATA_DIR_CONFIG);
    let own_file = if implicit.exists() && explicit.as_ref() != Some(&implicit) {
        let own = read_file(&implicit)?;
        if own.contains_key("data_dir") {
            return Err(ConfigError(format!(
                "{}: data_dir cannot be set inside the data directory's own config file; \
                 use --data-dir or INNKEEP_DATA_DIR",
                implicit.display()
            )));
        }
        merge_under(&mut table, own);
        Some(implicit)
    } else {
        None
    };
    let file = explicit.or_else(|| own_file.clone());
    let own_file = own_file.filter(|o| Some(o) != file.as_ref());
    let mut env_keys = Vec::new();
    let mut env_vars: Vec<(String, String)> = env
        .into_iter()
        .filter(|(k, _)| k.starts_with(ENV_PREFIX) && !FLAG_VARS.contains(&k.as_str()))
        .collect();
    env_vars.sort();
    for (key, raw) in env_vars {
        let path: Vec<String> = key[ENV_PREFIX.len()..]
            .split("__")
            .map(str::to_ascii_lowercase)
            .collect();
        let value = env_value(&format!("environment variable {key}"), &path, &raw)?;
        insert_path(&mut table, &path, value);
        env_keys.push(key);
    }
    let mut config: Config = toml::Table::try_into(table)
        .map_err(|e| ConfigError(format!("configuration: {}", e.message())))?;
    if let Some(listen) = flags.listen {
        config.server.listen = listen;
    }
    config.backup.check().map_err(ConfigError)?;
    if let Some(channel) = &config.channel {
        channel.check().map_err(ConfigError)?;
    }
    if let Some(mail) = &config.mail {
        mail.check().map_err(ConfigError)?;
    }
    if let Some(hub) = &config.hub {
        hub.check().map_err(ConfigError)?;
    }
    if config.oauth.access_token_minutes == 0 || config.oauth.refresh_idle_days == 0 {
        return Err(ConfigError("oauth lifetimes must be at least 1".into()));
    }
    if config.webhooks.workers == 0 || config.webhooks.workers > 64 {
        return Err(ConfigError(
            "webhooks.workers must be between 1 and 64".into(),
        ));
    }
    config.limits.rate().map_err(ConfigError)?;
    if config.events.retention_days == 0 {
        return Err(ConfigError(
            "events.retention_days must be at least 1".into(),
        ));
    }
    config
        .compliance
        .registration
        .check()
        .map_err(ConfigError)?;
    config.compliance.fiscal.check().map_err(ConfigError)?;
    config.compliance.einvoice.check().map_err(ConfigError)?;
    if !(1..=3650).contains(&config.desk.kiosk_days) {
        return Err(ConfigError(format!(
            "desk.kiosk_days must be between 1 and 3650 (days a kiosk stays paired), not {}",
            config.desk.kiosk_days
        )));
    }
    if let Some(url) = &config.webhooks.proxy {
        crate::jobs::webhook::proxy(url).map_err(ConfigError)?;
    }
    tracing_subscriber::EnvFilter::try_new(&config.log.level).map_err(|e| {
        ConfigError(format!(
            "log.level {:?} is not a valid filter: {e}",
            config.log.level
        ))
    })?;
    let data_dir = flags
        .data_dir
        .clone()
        .or_else(|| config.data_dir.clone())
        .unwrap_or(provisional_dir);
    if config.server.tls_cert.is_some() != config.server.tls_key.is_some() {
        return Err(ConfigError(
            "server.tls_cert and server.tls_key go together: set both for HTTPS, or neither".into(),
        ));
    }
    let f = &mut config.compliance.fiscal;
    let s = &mut config.server;
    for path in [
        &mut f.certificate,
        &mut f.ca_certificate,
        &mut s.tls_cert,
        &mut s.tls_key,
    ]
    .into_iter()
    .flatten()
    {
        if path.is_relative() {
            *path = data_dir.join(&*path);
        }
    }
    Ok(Loaded {
        config,
        data_dir,
        file,
        own_file,
        env_keys,
    })
}

fn read_file(path: &Path) -> Result<toml::Table, ConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConfigError(format!("cannot read config file {}: {e}", path.display())))?;
    let table: toml::Table = text
        .parse()
        .map_err(|e| ConfigError(format!("config file {}: {e}", path.display())))?;
    // Check the file on its own first, so that an unknown key names the file.
    toml::Table::try_into::<Config>(table.clone())
        .map_err(|e| ConfigError(format!("config file {}: {}", path.display(), e.message())))?;
    Ok(table)
}

/// Sets the dotted `key` (such as `compliance.registration.username`) in `table` to `raw`,
/// typed as an environment variable's value is; the error names the key.
pub fn set_dotted(table: &mut toml::Table, key: &str, raw: &str) -> Result<(), ConfigError> {
    let path: Vec<String> = key.split('.').map(str::to_string).collect();
    if path.iter().any(String::is_empty) || path[0] == "data_dir" {
        return Err(ConfigError(format!(
            "{key:?} is not a setting innkeep setup can write"
        )));
    }
    let value = env_value(&format!("--set {key}"), &path, raw)?;
    insert_path(table, &path, value);
    Ok(())
}

/// Types an environment value by trying it as text first, then as a TOML literal
/// (number, boolean), against the real config shape; names the variable on failure.
fn env_value(label: &str, path: &[String], raw: &str) -> Result<toml::Value, ConfigError> {
    let as_text = toml::Value::String(raw.to_string());
    let fits = |v: &toml::Value| {
        let mut t = toml::Table::new();
        insert_path(&mut t, path, v.clone());
        toml::Table::try_into::<Config>(t)
    };
    let text_err = match fits(&as_text) {
        Ok(_) => return Ok(as_text),
        Err(e) => e,
    };
    if let Ok(doc) = format!("v = {raw}").parse::<toml::Table>()
        && let Some(v) = doc.get("v")
        && fits(v).is_ok()
    {
        return Ok(v.clone());
    }
    Err(ConfigError(format!("{label}: {}", text_err.message())))
}

/// Adds `low`'s keys to `high` where `high` does not set them (tables merged key by key).
fn merge_under(high: &mut toml::Table, low: toml::Table) {
    for (key, value) in low {
        match (high.get_mut(&key), value) {
            (Some(toml::Value::Table(h)), toml::Value::Table(l)) => merge_under(h, l),
            (Some(_), _) => {}
            (None, v) => {
                high.insert(key, v);
            }
        }
    }
}

fn insert_path(table: &mut toml::Table, path: &[String], value: toml::Value) {
    match path {
        [] => {}
        [last] => {
            table.insert(last.clone(), value);
        }
        [first, rest @ ..] => {
            let entry = table
                .entry(first.clone())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            if !entry.is_table() {
                *entry = toml::Value::Table(toml::Table::new());
            }
            if let toml::Value::Table(inner) = entry {
                insert_path(inner, rest, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_listen_on_loopback_8080() {
        let l = load(&Flags::default(), env(&[])).unwrap();
        assert_eq!(l.config.server.listen.to_string(), "127.0.0.1:8080");
    }

    #[test]
    fn env_overrides_nested_keys_and_types_numbers() {
        let l = load(
            &Flags::default(),
            env(&[
                ("INNKEEP_SERVER__LISTEN", "0.0.0.0:9000"),
                ("INNKEEP_SERVER__SHUTDOWN_GRACE_SECONDS", "5"),
                ("OTHER", "x"),
            ]),
        )
        .unwrap();
        assert_eq!(l.config.server.listen.to_string(), "0.0.0.0:9000");
        assert_eq!(l.config.server.shutdown_grace_seconds, 5);
    }

    #[test]
    fn unknown_env_key_is_named() {
        let e = load(&Flags::default(), env(&[("INNKEEP_SERVER__LISTN", "x")])).unwrap_err();
        assert!(e.0.contains("INNKEEP_SERVER__LISTN"), "{e}");
        assert!(e.0.contains("listn"), "{e}");
    }

    #[test]
    fn file_then_env_then_flags() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("c.toml");
        std::fs::write(
            &file,
            "[server]\nlisten = \"127.0.0.1:1000\"\n[log]\nlevel = \"debug\"\n",
        )
        .unwrap();
        let flags = Flags {
            config_file: Some(file.clone()),
            ..Flags::default()
        };
        let l = load(&flags, env(&[("INNKEEP_LOG__LEVEL", "warn")])).unwrap();
        assert_eq!(l.config.server.listen.port(), 1000);
        assert_eq!(l.config.log.level, "warn");
        let flags = Flags {
            listen: Some("127.0.0.1:2000".parse().unwrap()),
            ..flags
        };
        assert_eq!(
            load(&flags, env(&[])).unwrap().config.server.listen.port(),
            2000
        );
    }

    #[test]
    fn registration_keys_come_from_the_environment_and_secrets_stay_hidden() {
        let l = load(
            &Flags::default(),
            env(&[
                ("INNKEEP_COMPLIANCE__REGISTRATION__SCHEME", "it-alloggiati"),
                ("INNKEEP_COMPLIANCE__REGISTRATION__USERNAME", "hotel1"),
                ("INNKEEP_COMPLIANCE__REGISTRATION__PASSWORD", "pw-secret"),
                ("INNKEEP_COMPLIANCE__REGISTRATION__WS_KEY", "key-secret"),
                ("INNKEEP_COMPLIANCE__REGISTRATION__DRY_RUN", "true"),
            ]),
        )
        .unwrap();
        let r = &l.config.compliance.registration;
        assert_eq!(r.scheme, RegistrationSchemeName::ItAlloggiati);
        assert!(r.dry_run);
        assert_eq!(r.password.expose(), "pw-secret");
        let shown = format!(
            "{:?} {}",
            l.config,
            serde_json::to_string(&l.config).unwrap()
        );
        assert!(
            !shown.contains("pw-secret") && !shown.contains("key-secret"),
            "{shown}"
        );
        let e = load(
            &Flags::default(),
            env(&[("INNKEEP_COMPLIANCE__REGISTRATION__SCHEME", "it-alloggiati")]),
        )
        .unwrap_err();
        assert!(e.0.contains("compliance.registration.username"), "{e}");
        let e = load(
            &Flags::default(),
            env(&[("INNKEEP_COMPLIANCE__REGISTRATION__SCHEME", "fr-police")]),
        )
        .unwrap_err();
        assert!(
            e.0.contains("INNKEEP_COMPLIANCE__REGISTRATION__SCHEME"),
            "{e}"
        );
    }

    #[test]
    fn unknown_file_key_names_file_and_key() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(DATA_DIR_CONFIG), "[server]\nport = 1\n").unwrap();
        let flags = Flags {
            data_dir: Some(dir.path().to_path_buf()),
            ..Flags::default()
        };
        let e = load(&flags, env(&[])).unwrap_err();
        assert!(e.0.contains("innkeep.toml") && e.0.contains("port"), "{e}");
    }

    #[test]
    fn system_file_then_the_data_directorys_own_beneath_it() {
        let etc = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let system = etc.path().join("innkeep.toml");
        std::fs::write(
            &system,
            format!(
                "data_dir = {:?}\n[server]\nlisten = \"0.0.0.0:8080\"\n",
                data.path().display().to_string()
            ),
        )
        .unwrap();
        std::fs::write(
            data.path().join(DATA_DIR_CONFIG),
            "[server]\nlisten = \"127.0.0.1:1\"\nshutdown_grace_seconds = 7\n",
        )
        .unwrap();
        let flags = Flags {
            system_file: Some(system.clone()),
            ..Flags::default()
        };
        let l = load(&flags, env(&[])).unwrap();
        assert_eq!(l.data_dir, data.path());
        assert_eq!(l.file.as_deref(), Some(system.as_path()));
        assert_eq!(l.own_file, Some(data.path().join(DATA_DIR_CONFIG)));
        assert_eq!(l.config.server.listen.port(), 8080, "the system file wins");
        assert_eq!(
            l.config.server.shutdown_grace_seconds, 7,
            "the own file fills in"
        );
        // An explicit data directory ignores the system file.
        let elsewhere = tempfile::tempdir().unwrap();
        let flags = Flags {
            data_dir: Some(elsewhere.path().to_path_buf()),
            ..flags
        };
        let l = load(&flags, env(&[])).unwrap();
        assert!(l.file.is_none() && l.own_file.is_none());
    }
}
