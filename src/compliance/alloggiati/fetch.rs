//! Fetching from Alloggiati Web besides the registrations: the code tables
//! (`Tabella(Utente, token, tipo)`, each a `;`-separated CSV with its header) and each day's
//! receipt (`Ricevuta(Utente, token, Data)`, the Polizia di Stato's signed PDF), each with
//! the token asked for again once when the service refuses it.

use chrono::NaiveDate;

use super::soap::{self, element};
use super::{Alloggiati, Unread, answer};
use crate::compliance::transport::TransportError;
use crate::compliance::{Exchange, RegistrationScheme};

impl Alloggiati {
    /// The token held now.
    pub(super) fn token_now(&self) -> Option<String> {
        self.token
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|t| t.value.clone())
    }

    /// The receipt of `day`, or why not (and whether the token was refused).
    pub(super) fn receipt(
        &self,
        log: &mut Vec<Exchange>,
        day: NaiveDate,
    ) -> Result<Option<Vec<u8>>, (String, bool)> {
        let token = self.token_now().ok_or(("no token yet".to_string(), true))?;
        let children = [
            element("Utente", &self.settings.username),
            element("token", &token),
            element("Data", &format!("{day}T00:00:00")),
        ]
        .concat();
        let (exchange, result) = self.call("Ricevuta", &children, &[&token]);
        log.push(exchange);
        let reply = result.map_err(|e| {
            let (TransportError::NotSent(m) | TransportError::NoAnswer(m)) = e;
            (
                format!("the receipt of {day} could not be fetched: {m}"),
                false,
            )
        })?;
        match answer(&reply, "Ricevuta", soap::receipt) {
            Ok(Ok(pdf)) => Ok(pdf),
            Ok(Err(e)) => Err((e.describe(), e.is_authentication())),
            Err(Unread::Refused(o)) => Err((o.reason().to_string(), false)),
            Err(Unread::Garbled(why)) => Err((why, false)),
        }
    }

    /// Runs `step` with a token, asking for a fresh one once when the service refuses it.
    pub(super) fn with_token<T>(
        &self,
        mut step: impl FnMut(&mut Vec<Exchange>) -> Result<T, (String, bool)>,
    ) -> (Vec<Exchange>, Result<T, String>) {
        let mut log = Vec::new();
        for fresh in [false, true] {
            match self.authenticate(fresh) {
                Ok(mut e) => log.append(&mut e),
                Err((mut e, outcome)) => {
                    log.append(&mut e);
                    return (log, Err(outcome.reason().to_string()));
                }
            }
            match step(&mut log) {
                Err((why, true)) if !fresh => {
                    tracing::info!(%why, "Alloggiati Web asked for a new token");
                    continue;
                }
                other => return (log, other.map_err(|(why, _)| why)),
            }
        }
        (log, Err("Alloggiati Web kept refusing the token".into()))
    }

    /// Every table, or why not (and whether the token was refused).
    #[allow(clippy::type_complexity)]
    pub(super) fn tables(
        &self,
        log: &mut Vec<Exchange>,
    ) -> Result<Vec<(&'static str, Vec<crate::model::codes::CodeRow>)>, (String, bool)> {
        let token = self.token_now().ok_or(("no token yet".to_string(), true))?;
        let mut out = Vec::new();
        for table in crate::compliance::codes::TABLES {
            let children = [
                element("Utente", &self.settings.username),
                element("token", &token),
                element("tipo", table),
            ]
            .concat();
            let (exchange, result) = self.call("Tabella", &children, &[&token]);
            log.push(exchange);
            let reply = result.map_err(|e| {
                let (TransportError::NotSent(m) | TransportError::NoAnswer(m)) = e;
                (
                    format!("the table {table} could not be fetched: {m}"),
                    false,
                )
            })?;
            let csv = match answer(&reply, "Tabella", soap::table) {
                Ok(Ok(csv)) => csv,
                Ok(Err(e)) => return Err((e.describe(), e.is_authentication())),
                Err(Unread::Refused(o)) => return Err((o.reason().to_string(), false)),
                Err(Unread::Garbled(why)) => return Err((why, false)),
            };
            let rows = crate::compliance::codes::parse_table(table, &csv).map_err(|rule| {
                (
                    format!("the table {table} could not be read: {rule:?}"),
                    false,
                )
            })?;
            out.push((table, rows));
        }
        Ok(out)
    }
}
