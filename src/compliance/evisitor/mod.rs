//! Croatia's eVisitor (the tourist boards' system): every guest checked in within 24 hours
//! of arrival and checked out within 24 hours of departure, through its Web API (Rhetos).
//!
//! A forms login (`Resources/AspNetFormsAuth/Authentication/Login`, JSON, answers `true`)
//! sets cookies that must all go back on every call, joined with `;`; they are kept until a
//! call says the user is no longer authenticated. Actions (`Rest/Htz/<Action>/`) answer 200
//! with an empty body on success, and otherwise `{"UserMessage","SystemMessage"}`: with HTTP
//! 400 as the framework does, and, defensively, with 200 too (any body on an action is an
//! error). Each guest is one call, so a batch can stop part-way: the guests sent so far keep
//! their results and the rest waits ([`Outcome::Progress`]). Posting a check-in again with the
//! same ID edits the active check-in, so a lost answer to `CheckInTourist` is simply sent
//! again; a lost answer to a check-out or a cancellation is Unknown. The password, the API
//! key and the cookies never reach the exchange log. See `docs/research/hr-evisitor.md`.

pub mod answer;
pub mod leave;
pub mod tables;
pub mod tourist;

use std::sync::{Arc, Mutex};
use std::time::Instant as Clock;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde_json::json;

use self::answer::{Step, judge, message};
use self::tables::{FACILITIES, SCHEME, TABLES, TAX_CATEGORIES};
use self::tourist::{CHECK_IN, Defaults};
use super::transport::{Reply, Transport, TransportError};
use super::{
    Exchange, Outcome, Party, Prepared, PreparedRow, Problem, RegistrationScheme, RowResult,
};
use crate::error::AppResult;
use crate::model::codes::{CodeLookup, CodeRow};

/// What replaces secrets in the exchange log.
const REDACTED: &str = "[redacted]";
/// How many days back eVisitor takes a check-in or check-out (its system parameter
/// `AllowedNumberOfDaysToCheckInCheckOut`; 15 for hotels since 2017 per a tourist board's
/// notice, the current value unverified). The legal deadline stays 24 hours.
pub const RETROACTIVE_DAYS: u64 = 15;

/// The account and the defaults (from `[compliance.registration]`).
#[derive(Clone)]
pub struct Settings {
    /// The API root (`…/eVisitorRhetos_API` or `…/testApi`).
    pub root: String,
    /// The user name.
    pub username: String,
    /// The password (secret).
    pub password: String,
    /// The application key, when the platform asks for one (secret).
    pub api_key: String,
    /// The facility and what guests get when they say nothing.
    pub defaults: Defaults,
}

/// The adapter.
pub struct Evisitor {
    settings: Settings,
    transport: Arc<dyn Transport>,
    cookies: Mutex<Option<String>>,
}

impl Evisitor {
    /// An adapter calling eVisitor through `transport`.
    pub fn new(settings: Settings, transport: Arc<dyn Transport>) -> Evisitor {
        Evisitor {
            settings,
            transport,
            cookies: Mutex::new(None),
        }
    }

    fn cookie(&self) -> Option<String> {
        self.cookies
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn set_cookie(&self, value: Option<String>) {
        *self.cookies.lock().unwrap_or_else(|p| p.into_inner()) = value;
    }

    /// `text` with the secrets replaced, as they are and as JSON writes them (a quote or a
    /// backslash in a password is escaped in a body).
    fn redact(&self, text: &str) -> String {
        let s = &self.settings;
        [s.password.as_str(), s.api_key.as_str()]
            .iter()
            .filter(|x| !x.is_empty())
            .flat_map(|x| {
                let escaped = serde_json::to_string(x).unwrap_or_default();
                [escaped.trim_matches('"').to_string(), x.to_string()]
            })
            .fold(text.to_string(), |acc, x| acc.replace(&x, REDACTED))
    }

    /// One call; the exchange is logged with the secrets replaced (`logged`: the body as
    /// the log keeps it, when it differs from the one sent).
    fn call(
        &self,
        operation: &str,
        url: &str,
        body: Option<&str>,
    ) -> (Exchange, Result<Reply, TransportError>) {
        self.call_logged(operation, url, body, None)
    }

    fn call_logged(
        &self,
        operation: &str,
        url: &str,
        body: Option<&str>,
        logged: Option<String>,
    ) -> (Exchange, Result<Reply, TransportError>) {
        let cookie = self.cookie().unwrap_or_default();
        let mut headers = vec![("Accept", "application/json")];
        if body.is_some() {
            headers.push(("Content-Type", "application/json; charset=utf-8"));
        }
        if !cookie.is_empty() {
            headers.push(("Cookie", cookie.as_str()));
        }
        let started_at = Utc::now();
        let clock = Clock::now();
        let result = match body {
            Some(b) => self.transport.post(url, &headers, b),
            None => self.transport.get(url, &headers),
        };
        let request = logged
            .or_else(|| body.map(|b| self.redact(b)))
            .unwrap_or_else(|| url.to_string());
        let redact = |t: &str| self.redact(t);
        let exchange =
            super::transport::exchange(operation, request, &result, started_at, clock, redact);
        (exchange, result)
    }

    fn login(&self) -> (Exchange, Result<(), Outcome>) {
        let s = &self.settings;
        let mut body =
            json!({"UserName": s.username, "Password": s.password, "PersistCookie": false});
        if !s.api_key.is_empty() {
            body["apikey"] = json!(s.api_key);
        }
        let url = format!("{}/Resources/AspNetFormsAuth/Authentication/Login", s.root);
        self.set_cookie(None);
        // The log keeps the body with the secrets taken out as values, not found in text.
        let mut shown = body.clone();
        shown["Password"] = json!(REDACTED);
        if !s.api_key.is_empty() {
            shown["apikey"] = json!(REDACTED);
        }
        let (exchange, result) = self.call_logged(
            "Login",
            &url,
            Some(&body.to_string()),
            Some(shown.to_string()),
        );
        let retry = |reason: String| Outcome::Retry {
            reason,
            after: None,
        };
        let outcome = match result {
            Err(TransportError::NotSent(m) | TransportError::NoAnswer(m)) => {
                Err(retry(format!("cannot sign in to eVisitor: {m}")))
            }
            Ok(r) if r.status == 200 && r.body.trim() == "true" && !r.cookies.is_empty() => {
                self.set_cookie(Some(r.cookies.join(";")));
                Ok(())
            }
            Ok(r) if r.status == 200 && r.body.trim() == "true" => Err(retry(
                "eVisitor said the sign-in worked but set no cookies, so no call can follow; a proxy between innkeep and eVisitor may be removing them".into(),
            )),
            Ok(r) if r.status == 200 && r.body.trim() == "false" => Err(retry(
                "eVisitor refused the user name or password; check compliance.registration.username and password".into(),
            )),
            Ok(r) => Err(retry(format!(
                "eVisitor did not sign in (HTTP {}): {}",
                r.status,
                message(&r.body).unwrap_or_else(|| "no message".into())
            ))),
        };
        (exchange, outcome)
    }

    /// One action for one guest.
    fn act(&self, line: &str) -> (Exchange, Step) {
        let (op, body) = line.split_once(' ').unwrap_or((line, "{}"));
        let url = format!("{}/Rest/Htz/{op}/", self.settings.root);
        let (exchange, result) = self.call(op, &url, Some(body));
        let step = match result {
            Err(TransportError::NotSent(m)) => Step::Stop(Outcome::Retry {
                reason: format!("eVisitor could not be reached: {m}"),
                after: None,
            }),
            // Posting a check-in again with its ID edits it: safe to repeat.
            Err(TransportError::NoAnswer(m)) if op == CHECK_IN => Step::Stop(Outcome::Retry {
                reason: format!(
                    "no answer came back ({m}); the check-in is sent again with the same ID"
                ),
                after: None,
            }),
            Err(TransportError::NoAnswer(m)) => Step::Stop(Outcome::Unknown {
                reason: format!("{op} was sent but no answer came back ({m})"),
            }),
            Ok(r) => judge(&r, op),
        };
        (exchange, step)
    }

    /// One look-up's records.
    fn browse(&self, name: &str, query: &str, log: &mut Vec<Exchange>) -> Result<String, String> {
        let url = format!(
            "{}/Rest/Htz/{name}/{}{query}",
            self.settings.root,
            if query.is_empty() { "" } else { "?" }
        );
        let (mut exchange, result) = self.call(name, &url, None);
        // A look-up's body can be megabytes: the log keeps its size only.
        if let Some(r) = &exchange.response
            && r.len() > 2000
        {
            exchange.response = Some(format!("[{} bytes]", r.len()));
        }
        log.push(exchange);
        let reply = result.map_err(|e| match e {
            TransportError::NotSent(m) | TransportError::NoAnswer(m) => format!("{name}: {m}"),
        })?;
        if reply.status != 200 || message(&reply.body).is_some() {
            return Err(format!(
                "{name}: HTTP {}: {}",
                reply.status,
                message(&reply.body).unwrap_or_else(|| "no message".into())
            ));
        }
        Ok(reply.body)
    }

    fn fetch(&self, log: &mut Vec<Exchange>) -> Result<Vec<(&'static str, Vec<CodeRow>)>, String> {
        let facility = &self.settings.defaults.facility;
        let found = self.browse(FACILITIES, &tables::filter(&[("Code", facility)]), log)?;
        let facility_id = tables::records(&found)?
            .first()
            .and_then(|r| r["ID"].as_str().map(str::to_string))
            .ok_or_else(|| format!("eVisitor shows this account no facility with the code {facility}; check compliance.registration.facility"))?;
        let mut out = Vec::new();
        for table in TABLES {
            let query = if table == TAX_CATEGORIES {
                tables::filter(&[("FacilityID", &facility_id), ("Active", "true")])
            } else {
                String::new()
            };
            let body = self.browse(table, &query, log)?;
            out.push((table, tables::parse(table, &body)?));
        }
        Ok(out)
    }
}

impl RegistrationScheme for Evisitor {
    fn name(&self) -> &'static str {
        SCHEME
    }

    fn enabled(&self) -> bool {
        true
    }

    fn prepare(
        &self,
        codes: &dyn CodeLookup,
        party: &Party,
    ) -> AppResult<Result<Prepared, Vec<Problem>>> {
        // Croatia is in every country list eVisitor has: without it, none was ever loaded.
        if !codes.exists(SCHEME, tables::COUNTRIES, "HRV")? {
            let scheme = SCHEME.to_string();
            return Err(crate::refusal::FiscalRefusal::TablesMissing { scheme }.into());
        }
        Ok(
            tourist::check_ins(codes, party, &self.settings.defaults)?.map(|rows| Prepared {
                rows,
                record_date: Some(party.arrival),
            }),
        )
    }

    fn due_at(&self, _party: &Party, checked_in_at: DateTime<Utc>) -> DateTime<Utc> {
        checked_in_at + chrono::Duration::hours(24)
    }

    fn sendable(&self, record_date: NaiveDate, today: NaiveDate) -> Result<(), String> {
        if record_date + chrono::Days::new(RETROACTIVE_DAYS) >= today {
            return Ok(());
        }
        Err(format!(
            "eVisitor takes check-ins and check-outs at most {RETROACTIVE_DAYS} days back, and these are of {record_date}: \
             ask the tourist board to enter them"
        ))
    }

    fn authenticate(&self, fresh: bool) -> Result<Vec<Exchange>, (Vec<Exchange>, Outcome)> {
        if !fresh && self.cookie().is_some() {
            return Ok(Vec::new());
        }
        match self.login() {
            (e, Ok(())) => Ok(vec![e]),
            (e, Err(outcome)) => Err((vec![e], outcome)),
        }
    }

    fn submit(&self, lines: &[String]) -> (Vec<Exchange>, Outcome) {
        if self.cookie().is_none() {
            return (
                Vec::new(),
                Outcome::Reauthenticate {
                    reason: "not signed in yet".into(),
                },
            );
        }
        let mut log = Vec::new();
        let mut rows = Vec::new();
        for line in lines {
            let (exchange, step) = self.act(line);
            log.push(exchange);
            match step {
                Step::Done => rows.push(RowResult {
                    accepted: true,
                    error: None,
                }),
                Step::Refused(m) => rows.push(RowResult {
                    accepted: false,
                    error: Some(m),
                }),
                Step::Stop(outcome) => {
                    if matches!(outcome, Outcome::Reauthenticate { .. }) {
                        self.set_cookie(None);
                    }
                    let outcome = match rows.is_empty() {
                        true => outcome,
                        false => Outcome::Progress {
                            rows,
                            then: Box::new(outcome),
                        },
                    };
                    return (log, outcome);
                }
            }
        }
        let ids: Vec<String> = lines
            .iter()
            .filter_map(|l| tourist::parse(l))
            .filter_map(|(_, b)| b["ID"].as_str().map(str::to_string))
            .collect();
        let op = lines
            .first()
            .and_then(|l| l.split_once(' '))
            .map(|(op, _)| op)
            .unwrap_or("");
        let reference = format!("eVisitor {op}: {}", ids.join(", "));
        let refused: Vec<&RowResult> = rows.iter().filter(|r| !r.accepted).collect();
        let outcome = if refused.is_empty() {
            Outcome::Accepted {
                authority_reference: reference,
            }
        } else if refused.len() < rows.len() {
            Outcome::Partial {
                rows,
                authority_reference: reference,
            }
        } else {
            let reason = refused[0].error.clone().unwrap_or_default();
            Outcome::Rejected { reason, rows }
        };
        (log, outcome)
    }

    fn export(&self, lines: &[String]) -> String {
        lines.join("\n")
    }

    fn departure(&self, registered: &[PreparedRow], at: NaiveDateTime) -> Vec<PreparedRow> {
        leave::check_outs(registered, at)
    }

    fn withdrawal(&self, registered: &[PreparedRow], reason: &str) -> Vec<PreparedRow> {
        leave::cancellations(registered, reason)
    }

    fn resends_changes(&self) -> bool {
        true
    }

    fn withdraws(&self) -> bool {
        true
    }

    fn unknown_advice(&self) -> &'static str {
        "Look these guests up on eVisitor (the list of check-ins and check-outs): if they are not there, retry this \
         submission (a check-in is sent under the same ID, which never counts a guest twice; a check-out eVisitor \
         already has counts as done)."
    }

    fn fetches_tables(&self) -> bool {
        true
    }

    fn table_names(&self) -> &'static [&'static str] {
        &TABLES
    }

    fn fetch_tables(&self) -> super::FetchedTables {
        let mut log = Vec::new();
        for fresh in [false, true] {
            match self.authenticate(fresh) {
                Ok(mut e) => log.append(&mut e),
                Err((mut e, outcome)) => {
                    log.append(&mut e);
                    return (log, Err(outcome.reason().to_string()));
                }
            }
            match self.fetch(&mut log) {
                Err(why) if !fresh && why.to_lowercase().contains("not authenticated") => continue,
                other => return (log, other),
            }
        }
        (log, Err("eVisitor kept asking to sign in again".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nowhere;

    impl Transport for Nowhere {
        fn post(&self, _: &str, _: &[(&str, &str)], _: &str) -> Result<Reply, TransportError> {
            Err(TransportError::NotSent("no network in this test".into()))
        }
        fn get(&self, _: &str, _: &[(&str, &str)]) -> Result<Reply, TransportError> {
            Err(TransportError::NotSent("no network in this test".into()))
        }
    }

    #[test]
    fn a_password_with_quotes_never_reaches_the_log() {
        let password = r#"pa"ss\word"#;
        let e = Evisitor::new(
            Settings {
                root: "http://127.0.0.1:9".into(),
                username: "hotel".into(),
                password: password.into(),
                api_key: "key-123".into(),
                defaults: Defaults::default(),
            },
            Arc::new(Nowhere),
        );
        let (exchange, _) = e.login();
        let logged = exchange.request.unwrap();
        assert!(
            !logged.contains("ss\\\\word") && !logged.contains("key-123"),
            "{logged}"
        );
        assert!(logged.contains(REDACTED));
        let body = json!({"Password": password}).to_string();
        assert_eq!(e.redact(&body), format!("{{\"Password\":\"{REDACTED}\"}}"));
    }
}
