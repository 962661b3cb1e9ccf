//! Use cases. Each public function is one thing a client can do: it opens the (one) write
//! transaction, applies the domain rules to what the store reads, writes the change and
//! records its event in the same transaction.

pub mod api_clients;
pub mod authority;
pub mod availability;
pub mod backups;
pub mod board;
pub mod calendar;
pub mod cash_register;
pub mod channel;
pub mod channel_bookings;
pub mod channel_mapping;
pub mod channel_sync;
pub mod charges;
pub mod city_tax;
pub mod code_tables;
pub mod compliance_centre;
mod context;
mod credit_note;
pub mod day_close;
pub mod day_figures;
pub mod deliveries;
pub mod deposits;
pub mod desk;
pub mod desk_lists;
pub mod desk_views;
pub mod doctor;
pub mod einvoice_payments;
pub mod einvoices;
pub mod events;
pub mod extras;
pub mod feed;
pub mod guest_messages;
pub mod guests;
pub mod history;
pub mod idempotency;
pub mod identity_check;
pub mod import;
mod interim;
pub mod invoice_mail;
pub mod invoices;
pub mod invoicing;
pub mod istat;
pub mod jobs;
pub mod kiosk;
pub mod mail_texts;
pub mod maintenance;
pub mod messages;
pub mod money_reports;
pub mod numbering;
pub mod oauth;
pub mod offers;
pub mod outbox;
pub mod party;
pub mod payment_method;
pub mod pre_check_in;
pub mod privacy;
pub mod rate_plans;
pub mod rates;
pub mod registration;
pub mod registration_changes;
pub mod registration_receipts;
pub mod reissue;
pub mod reports;
pub mod reservations;
pub mod room_types;
pub mod rooms;
pub mod ross1000;
pub mod settings;
pub mod settlement;
pub mod setup;
pub mod setup_compliance;
pub mod setup_plan;
pub mod staff;
pub mod stays;
pub mod submissions;
pub mod undo_check_in;
pub mod webhooks;
pub mod welcome;

pub use context::Services;

use poem_openapi::types::MaybeUndefined;

use crate::error::{AppError, AppResult, FieldError};

/// An `If-Match` precondition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IfMatch {
    /// `*`: the record must exist.
    Any,
    /// One of these strong ETags (versions); weak or malformed tags never match.
    /// Bare digits (`3`) are read as `"3"`.
    Versions(Vec<i64>),
}

impl IfMatch {
    /// Parses an `If-Match` header value; an empty one means no precondition.
    pub fn from_header(header: Option<&str>) -> Option<IfMatch> {
        header.filter(|h| !h.trim().is_empty()).map(IfMatch::parse)
    }

    /// Parses an `If-Match` header value.
    pub fn parse(header: &str) -> IfMatch {
        if header.trim() == "*" {
            return IfMatch::Any;
        }
        IfMatch::Versions(
            header
                .split(',')
                .filter_map(|tag| {
                    let tag = tag.trim();
                    if tag.starts_with("W/") {
                        return None;
                    }
                    // Bare digits are accepted too: some clients drop the quotes.
                    let inner = tag
                        .strip_prefix('"')
                        .and_then(|t| t.strip_suffix('"'))
                        .unwrap_or(tag);
                    inner.parse().ok()
                })
                .collect(),
        )
    }

    /// Checks the precondition against the current version.
    pub fn check(this: Option<&IfMatch>, current: i64) -> AppResult<()> {
        match this {
            None | Some(IfMatch::Any) => Ok(()),
            Some(IfMatch::Versions(v)) if v.contains(&current) => Ok(()),
            Some(_) => Err(AppError::precondition_failed(current)),
        }
    }
}

/// Applies an update of an optional field: absent keeps, null clears.
pub(crate) fn set_optional<T, U: Into<T>>(target: &mut Option<T>, update: MaybeUndefined<U>) {
    match update {
        MaybeUndefined::Undefined => {}
        MaybeUndefined::Null => *target = None,
        MaybeUndefined::Value(v) => *target = Some(v.into()),
    }
}

/// Converts a list of input values.
pub(crate) fn all_into<T, U: Into<T>>(items: Vec<U>) -> Vec<T> {
    items.into_iter().map(Into::into).collect()
}

/// Fails with 422 when any field error was collected.
pub(crate) fn fail_on(errs: Vec<FieldError>) -> AppResult<()> {
    if errs.is_empty() {
        Ok(())
    } else {
        Err(AppError::validation(errs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_match_accepts_strong_tags_only() {
        assert_eq!(IfMatch::parse("\"3\""), IfMatch::Versions(vec![3]));
        assert_eq!(IfMatch::parse("W/\"3\", \"4\""), IfMatch::Versions(vec![4]));
        assert_eq!(IfMatch::parse("*"), IfMatch::Any);
        assert!(IfMatch::check(Some(&IfMatch::parse("\"3\"")), 3).is_ok());
        assert!(IfMatch::check(Some(&IfMatch::parse("3")), 3).is_ok());
        assert!(IfMatch::check(Some(&IfMatch::parse("\"x\"")), 3).is_err());
        assert!(IfMatch::check(None, 3).is_ok());
    }
}

/// Whether an update changed nothing (so no new version and no event).
pub(crate) fn unchanged<T: poem_openapi::types::ToJSON>(old: &T, new: &T) -> bool {
    old.to_json() == new.to_json()
}

/// Which page of a list to read.
#[derive(Debug, Clone)]
pub struct PageRequest {
    /// Start after this record (from the cursor).
    pub after: Option<crate::store::page::Position>,
    /// The sort-key log position of the first page (from the cursor).
    pub as_of: Option<i64>,
    /// Page size.
    pub limit: usize,
}

impl PageRequest {
    /// The first `limit` records of a list, as they stand now.
    pub fn first(limit: usize) -> PageRequest {
        PageRequest {
            after: None,
            as_of: None,
            limit,
        }
    }
}

/// One page of a list.
#[derive(Debug)]
pub struct Page<T> {
    /// The records, each with its position.
    pub items: Vec<(T, crate::store::page::Position)>,
    /// The sort-key log position the list is read as of.
    pub as_of: i64,
    /// Whether more records follow.
    pub more: bool,
}

/// Reads one page with `fetch(conn, after, as_of, limit)`, asking for one extra record to
/// learn whether another page follows.
pub(crate) async fn page<T, F>(db: &crate::db::Db, req: PageRequest, fetch: F) -> AppResult<Page<T>>
where
    T: Send + 'static,
    F: FnOnce(
            &rusqlite::Connection,
            Option<&crate::store::page::Position>,
            i64,
            usize,
        ) -> AppResult<Vec<(T, crate::store::page::Position)>>
        + Send
        + 'static,
{
    db.read(move |c| {
        let as_of = match req.as_of {
            Some(a) => a,
            None => crate::store::page::current_as_of(c)?,
        };
        let mut items = fetch(c, req.after.as_ref(), as_of, req.limit + 1)?;
        let more = items.len() > req.limit;
        items.truncate(req.limit);
        Ok(Page { items, as_of, more })
    })
    .await
}

/// Every item of a list, page by page, as one snapshot.
pub async fn every<T>(
    mut page: impl AsyncFnMut(PageRequest) -> AppResult<Page<T>>,
) -> AppResult<Vec<T>> {
    let mut out = Vec::new();
    let mut req = PageRequest::first(500);
    loop {
        let p = page(req.clone()).await?;
        let (more, as_of) = (p.more, p.as_of);
        let last = p.items.last().map(|(_, pos)| pos.clone());
        out.extend(p.items.into_iter().map(|(t, _)| t));
        match (more, last) {
            (true, Some(after)) => {
                req = PageRequest {
                    after: Some(after),
                    as_of: Some(as_of),
                    limit: 500,
                }
            }
            _ => return Ok(out),
        }
    }
}
