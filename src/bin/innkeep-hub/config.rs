//! The hub's configuration: one TOML file (`--config`, `INNKEEP_HUB_CONFIG`, default
//! `/etc/innkeep/hub.toml`) naming the PostgreSQL database and the properties.
//!
//! ```toml
//! [database]
//! url = "host=/run/postgresql dbname=innkeep_hub user=innkeep_hub"
//!
//! [pull]
//! interval_seconds = 5
//!
//! [push]
//! listen = "0.0.0.0:8650"
//! trusted_proxies = ["127.0.0.1"]   # an HTTPS reverse proxy on this machine
//!
//! [[property]]
//! name = "seaside"
//! url = "https://seaside.example:8443"
//! client_id = "cli_..."
//! client_secret = "..."
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Where the configuration is read from when neither the flag nor the variable says.
pub const DEFAULT_FILE: &str = "/etc/innkeep/hub.toml";

/// The whole configuration.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The PostgreSQL database holding the read model.
    pub database: Database,
    /// How properties in pull mode are read.
    #[serde(default)]
    pub pull: Pull,
    /// Where properties in push mode send their events (absent: no push endpoint).
    #[serde(default)]
    pub push: Option<Push>,
    /// The hotels of the group.
    #[serde(default, rename = "property")]
    pub properties: Vec<Property>,
}

/// The PostgreSQL connection.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Database {
    /// A libpq connection string: `postgresql://user@host/db` or `host=... dbname=...`.
    pub url: String,
}

/// Pull mode's pace.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Pull {
    /// Seconds between polls of a property that is caught up (1 to 3600).
    pub interval_seconds: u64,
    /// Events asked for per page (1 to 200).
    pub page_size: u32,
    /// Seconds a call to a property may take (1 to 300).
    pub timeout_seconds: u64,
}

impl Default for Pull {
    fn default() -> Self {
        Pull {
            interval_seconds: 5,
            page_size: 200,
            timeout_seconds: 30,
        }
    }
}

impl Pull {
    /// The pause between polls of a caught-up property.
    pub fn interval(&self) -> Duration {
        Duration::from_secs(self.interval_seconds)
    }
}

/// The push endpoint.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Push {
    /// Address to listen on, such as `0.0.0.0:8650`.
    pub listen: String,
    /// The addresses of reverse proxies in front of the endpoint (the HTTPS terminator):
    /// for requests from them, the caller's address is the last one their
    /// `X-Forwarded-For` names, so that failed guesses are counted per caller, not for
    /// everyone behind the proxy. Empty: the connection's own address.
    #[serde(default)]
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

/// How the hub learns a property's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The hub reads the property's `GET /v1/events`.
    #[default]
    Pull,
    /// The property sends its events to the hub (it is behind NAT).
    Push,
}

impl Mode {
    /// The name stored in `properties.mode`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Pull => "pull",
            Mode::Push => "push",
        }
    }
}

/// One hotel.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Property {
    /// The property's name in the hub's tables: lower-case letters, digits, `-` and `_`.
    pub name: String,
    /// Pull (default) or push.
    #[serde(default)]
    pub mode: Mode,
    /// The property's base URL (pull mode), such as `https://seaside.example:8443`.
    #[serde(default)]
    pub url: Option<String>,
    /// Pull: an OAuth client of the property with `events:read`, `guests:read`,
    /// `reservations:read` and `invoices:read`. Push: the id the property sends.
    pub client_id: String,
    /// That client's secret.
    #[serde(skip_serializing)]
    pub client_secret: String,
}

/// A configuration problem, naming the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The key, such as `property[2].url`.
    pub key: String,
    /// What is wrong, in plain words.
    pub message: String,
}

/// Where the file is: the flag, else `INNKEEP_HUB_CONFIG` (clap reads it), else the default.
pub fn path(flag: Option<&Path>) -> PathBuf {
    flag.map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_FILE))
}

/// Reads and checks the file; every problem found, not only the first.
pub fn load(file: &Path) -> Result<Config, Vec<Problem>> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        vec![Problem {
            key: "(file)".into(),
            message: format!("cannot read {}: {e}", file.display()),
        }]
    })?;
    let config: Config = toml::from_str(&text).map_err(|e| {
        vec![Problem {
            key: "(file)".into(),
            message: format!("{} is not valid: {}", file.display(), e.message()),
        }]
    })?;
    let problems = check(&config);
    if problems.is_empty() {
        Ok(config)
    } else {
        Err(problems)
    }
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && name.len() <= 63
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// The rules a loaded configuration must meet.
pub fn check(c: &Config) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut say = |key: String, message: &str| {
        out.push(Problem {
            key,
            message: message.into(),
        })
    };
    if c.database.url.parse::<tokio_postgres::Config>().is_err() {
        say(
            "database.url".into(),
            "is not a PostgreSQL connection string (postgresql://user@host/db or host=... dbname=...)",
        );
    }
    if !(1..=3600).contains(&c.pull.interval_seconds) {
        say("pull.interval_seconds".into(), "must be 1 to 3600");
    }
    if !(1..=200).contains(&c.pull.page_size) {
        say("pull.page_size".into(), "must be 1 to 200");
    }
    if !(1..=300).contains(&c.pull.timeout_seconds) {
        say("pull.timeout_seconds".into(), "must be 1 to 300");
    }
    if let Some(p) = &c.push
        && p.listen.parse::<std::net::SocketAddr>().is_err()
    {
        say(
            "push.listen".into(),
            "must be an address and port, such as 0.0.0.0:8650",
        );
    }
    for (i, p) in c.properties.iter().enumerate() {
        let key = |field: &str| format!("property[{i}].{field}");
        if !valid_name(&p.name) {
            say(
                key("name"),
                "must be 1 to 63 lower-case letters, digits, - or _, starting with a letter or digit",
            );
        } else if c.properties[..i].iter().any(|q| q.name == p.name) {
            say(key("name"), "is used by another property");
        }
        match (&p.url, p.mode) {
            (Some(u), _) if !(u.starts_with("http://") || u.starts_with("https://")) => {
                say(key("url"), "must start with http:// or https://")
            }
            (None, Mode::Pull) => say(key("url"), "is needed in pull mode"),
            _ => {}
        }
        if p.client_id.trim().is_empty() {
            say(key("client_id"), "must not be empty");
        }
        if p.client_secret.trim().is_empty() {
            say(key("client_secret"), "must not be empty");
        }
    }
    if c.properties.iter().any(|p| p.mode == Mode::Push) && c.push.is_none() {
        say(
            "push.listen".into(),
            "is needed when a property is in push mode",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Config {
        toml::from_str(text).expect("parses")
    }

    #[test]
    fn every_problem_names_its_key() {
        let c = parse(
            r#"
            [database]
            url = "postgresql://hub@localhost/hub"
            [pull]
            interval_seconds = 0
            [[property]]
            name = "Sea side"
            url = "ftp://x"
            client_id = "a"
            client_secret = ""
            [[property]]
            name = "lake"
            mode = "push"
            client_id = "b"
            client_secret = "s"
            "#,
        );
        let keys: Vec<String> = check(&c).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "pull.interval_seconds",
                "property[0].name",
                "property[0].url",
                "property[0].client_secret",
                "push.listen"
            ]
        );
    }

    #[test]
    fn a_good_file_has_no_problems() {
        let c = parse(
            r#"
            [database]
            url = "host=/run/postgresql dbname=hub"
            [[property]]
            name = "seaside-1"
            url = "https://seaside.example"
            client_id = "a"
            client_secret = "s"
            "#,
        );
        assert!(check(&c).is_empty());
        assert_eq!(c.pull.page_size, 200);
    }

    #[test]
    fn the_packaged_example_is_valid() {
        let c = parse(include_str!("../../../packaging/hub/hub.toml"));
        assert!(check(&c).is_empty(), "{:?}", check(&c));
        assert_eq!(c.properties.len(), 1);
    }
}
