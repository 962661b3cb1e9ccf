//! Italy's Alloggiati Web (Polizia di Stato): guest registration within 24 hours (6 for a
//! stay of a day or less), for arrivals of today or yesterday only.
//!
//! `GenerateToken` gives a token that is reused until the `expires` it states; `Send` (or
//! `Test` when `dry_run`) takes the rows and answers one result per row. The password, the
//! WsKey and the token never reach the exchange log: they are redacted there.

mod fetch;
pub mod party;
pub mod record;
pub mod soap;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant as Clock};

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};

use self::record::SEPARATOR;
use self::soap::{Parsed, element, envelope, schedine};
use super::transport::{Reply, Transport, TransportError};
use super::{Exchange, Outcome, Party, Prepared, PreparedRow, Problem, RegistrationScheme};
use crate::error::AppResult;
use crate::model::codes::CodeLookup;

/// What replaces secrets in the exchange log.
const REDACTED: &str = "[redacted]";
/// A token this close to its expiry is renewed first.
const TOKEN_MARGIN: chrono::Duration = chrono::Duration::seconds(30);

/// The credentials and endpoint (from `[compliance.registration]`).
#[derive(Clone)]
pub struct Settings {
    /// The service URL.
    pub endpoint: String,
    /// `Utente`.
    pub username: String,
    /// `Password` (secret).
    pub password: String,
    /// `WsKey` (secret).
    pub ws_key: String,
    /// Call `Test` instead of `Send`.
    pub dry_run: bool,
}

struct Token {
    value: String,
    expires: DateTime<Utc>,
}

/// The adapter.
pub struct Alloggiati {
    settings: Settings,
    transport: Arc<dyn Transport>,
    token: Mutex<Option<Token>>,
}

impl Alloggiati {
    /// An adapter that calls the service through `transport`.
    pub fn new(settings: Settings, transport: Arc<dyn Transport>) -> Alloggiati {
        Alloggiati {
            settings,
            transport,
            token: Mutex::new(None),
        }
    }

    fn operation(&self) -> &'static str {
        if self.settings.dry_run {
            "Test"
        } else {
            "Send"
        }
    }

    /// One SOAP call; the exchange is logged with `secrets` replaced.
    fn call(
        &self,
        operation: &str,
        children: &str,
        secrets: &[&str],
    ) -> (Exchange, Result<Reply, TransportError>) {
        let body = envelope(operation, children);
        let action = format!("\"{}/{operation}\"", soap::NS);
        let headers = [
            ("Content-Type", "text/xml; charset=utf-8"),
            ("SOAPAction", action.as_str()),
        ];
        let started_at = Utc::now();
        let clock = Clock::now();
        let result = self
            .transport
            .post(&self.settings.endpoint, &headers, &body);
        let redact = |s: &str| {
            secrets
                .iter()
                .filter(|x| !x.is_empty())
                .fold(s.to_string(), |acc, x| {
                    acc.replace(&soap::escape(x), REDACTED)
                        .replace(*x, REDACTED)
                })
        };
        let exchange = super::transport::exchange(
            operation,
            redact(&body),
            &result,
            started_at,
            clock,
            redact,
        );
        (exchange, result)
    }
}

/// Reads an `xs:dateTime`; one without an offset is Italian local time.
fn parse_expiry(s: &str) -> Option<DateTime<Utc>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&Utc));
    }
    let local = NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f").ok()?;
    chrono_tz::Europe::Rome
        .from_local_datetime(&local)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
}

/// Why an answer holds no response element.
enum Unread {
    /// A SOAP fault or an HTTP error: the service processed nothing; try again.
    Refused(Outcome),
    /// A 200 whose body could not be read.
    Garbled(String),
}

/// Hands `read` the `{operation}Response` element of a reply, or says why there is none.
fn answer<T>(
    reply: &Reply,
    operation: &str,
    read: impl FnOnce(roxmltree::Node) -> T,
) -> Result<T, Unread> {
    let doc = roxmltree::Document::parse(&reply.body);
    let parsed = match &doc {
        Ok(d) => soap::parse(d, operation),
        Err(e) => Err(format!("the answer is not XML ({e})")),
    };
    let refused = |reason: String| {
        Unread::Refused(Outcome::Retry {
            reason,
            after: reply.retry_after,
        })
    };
    match parsed {
        Ok(Parsed::Fault(code, text)) => Err(refused(format!(
            "the service answered a SOAP fault ({code}): {text}"
        ))),
        _ if reply.status != 200 => Err(refused(format!(
            "the service answered HTTP {}",
            reply.status
        ))),
        Ok(Parsed::Response(node)) => Ok(read(node)),
        Err(e) => Err(Unread::Garbled(format!(
            "the answer could not be read: {e}"
        ))),
    }
}

impl RegistrationScheme for Alloggiati {
    fn name(&self) -> &'static str {
        party::SCHEME
    }

    fn enabled(&self) -> bool {
        true
    }

    fn prepare(
        &self,
        codes: &dyn CodeLookup,
        party: &Party,
    ) -> AppResult<Result<Prepared, Vec<Problem>>> {
        Ok(party::records(codes, party)?.map(|records| Prepared {
            rows: party
                .guests
                .iter()
                .zip(records)
                .map(|(g, r)| PreparedRow {
                    guest_id: g.id.clone(),
                    line: r.line(),
                })
                .collect(),
            record_date: Some(party.arrival),
        }))
    }

    fn roles(&self, guests: &[crate::model::Guest]) -> Vec<crate::compliance::GuestRole> {
        party::guest_types(guests)
            .into_iter()
            .map(record::role_of)
            .collect()
    }

    fn due_at(&self, party: &Party, checked_in_at: DateTime<Utc>) -> DateTime<Utc> {
        let hours = if party.nights() <= 1 { 6 } else { 24 };
        checked_in_at + chrono::Duration::hours(hours)
    }

    fn sendable(&self, record_date: NaiveDate, today: NaiveDate) -> Result<(), String> {
        if record_date == today || record_date + chrono::Days::new(1) == today {
            return Ok(());
        }
        Err(format!(
            "Alloggiati Web accepts only arrivals of today or yesterday, and these guests arrived on {record_date}: \
             register them with the Questura, using the records from GET /v1/compliance/registration/export?date={record_date}"
        ))
    }

    fn authenticate(&self, fresh: bool) -> Result<Vec<Exchange>, (Vec<Exchange>, Outcome)> {
        let mut cached = self.token.lock().unwrap_or_else(|p| p.into_inner());
        if fresh {
            *cached = None;
        }
        if cached
            .as_ref()
            .is_some_and(|t| t.expires - TOKEN_MARGIN > Utc::now())
        {
            return Ok(Vec::new());
        }
        let s = &self.settings;
        let children = [
            element("Utente", &s.username),
            element("Password", &s.password),
            element("WsKey", &s.ws_key),
        ]
        .concat();
        let (mut exchange, result) =
            self.call("GenerateToken", &children, &[&s.password, &s.ws_key]);
        let retry = |reason: String, after: Option<Duration>| Outcome::Retry { reason, after };
        let reply = match result {
            Ok(r) => r,
            Err(TransportError::NotSent(m) | TransportError::NoAnswer(m)) => {
                return Err((
                    vec![exchange],
                    retry(format!("cannot get a token: {m}"), None),
                ));
            }
        };
        let token = match answer(&reply, "GenerateToken", |n| {
            soap::token(n).map_err(|e| e.describe())
        }) {
            Ok(token) => token,
            Err(Unread::Refused(outcome)) => return Err((vec![exchange], outcome)),
            Err(Unread::Garbled(why)) => Err(why),
        };
        let (value, raw) = token.map_err(|why| {
            let reason = format!(
                "Alloggiati Web gave no token ({why}); check username, password and ws_key"
            );
            (vec![exchange.clone()], retry(reason, None))
        })?;
        exchange.response = exchange.response.map(|r| r.replace(&value, REDACTED));
        let Some(expires) = parse_expiry(&raw) else {
            let reason = format!("the token's expiry {raw:?} is not a date-time");
            return Err((vec![exchange], retry(reason, None)));
        };
        *cached = Some(Token { value, expires });
        Ok(vec![exchange])
    }

    fn submit(&self, lines: &[String]) -> (Vec<Exchange>, Outcome) {
        let token = self
            .token
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|t| t.value.clone());
        let Some(token) = token else {
            return (
                Vec::new(),
                Outcome::Reauthenticate {
                    reason: "no token yet".into(),
                },
            );
        };
        let op = self.operation();
        let children = [
            element("Utente", &self.settings.username),
            element("token", &token),
            schedine(lines),
        ]
        .concat();
        let (exchange, result) = self.call(op, &children, &[&token]);
        // A lost answer to `Test` stored nothing; to `Send` it may have stored the rows.
        let lost = |reason: String| match self.settings.dry_run {
            true => Outcome::Retry {
                reason,
                after: None,
            },
            false => Outcome::Unknown { reason },
        };
        let reply = match result {
            Ok(r) => r,
            Err(TransportError::NotSent(m)) => {
                let reason = format!("the service could not be reached: {m}");
                return (
                    vec![exchange],
                    Outcome::Retry {
                        reason,
                        after: None,
                    },
                );
            }
            Err(TransportError::NoAnswer(m)) => {
                let reason = format!("the rows were sent but no answer came back ({m})");
                return (vec![exchange], lost(reason));
            }
        };
        let day = lines.first().and_then(|l| l.get(2..12)).unwrap_or("");
        let reference = if self.settings.dry_run {
            format!("dry run: validated by Test for {day}, not stored")
        } else {
            format!("Alloggiati Web, ricevuta del {day}")
        };
        let outcome = match answer(&reply, op, |n| soap::outcome(n, op, lines.len(), reference)) {
            Ok(outcome) | Err(Unread::Refused(outcome)) => outcome,
            Err(Unread::Garbled(why)) => lost(why),
        };
        if let Outcome::Reauthenticate { .. } = outcome {
            *self.token.lock().unwrap_or_else(|p| p.into_inner()) = None;
        }
        (vec![exchange], outcome)
    }

    fn export(&self, lines: &[String]) -> String {
        lines.join(SEPARATOR)
    }

    fn table_names(&self) -> &'static [&'static str] {
        &crate::compliance::codes::TABLES
    }

    fn fetches_tables(&self) -> bool {
        true
    }

    /// Each table through `Tabella(Utente, token, tipo)`: the `;`-separated CSV with its
    /// header, as `innkeep compliance import-table` reads a downloaded one.
    fn fetch_tables(&self) -> crate::compliance::FetchedTables {
        self.with_token(|log| self.tables(log))
    }

    fn gives_receipts(&self) -> bool {
        !self.settings.dry_run
    }

    /// `Ricevuta(Utente, token, Data)`: the Polizia di Stato's signed PDF of what it stored
    /// that day (kept 30 days there; innkeep keeps it five years).
    fn fetch_receipt(&self, day: NaiveDate) -> crate::compliance::FetchedReceipt {
        self.with_token(|log| self.receipt(log, day))
    }
}
