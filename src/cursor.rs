//! Opaque, signed list cursors.
//!
//! A cursor is base64url JSON holding the last record's sort key and id, the sort-key log
//! position of the first page (see `store::page`), a hash of the filters it was made with,
//! and when the listing began, followed by `.` and an HMAC-SHA256 of that text under the
//! installation's cursor key (`cursor.key` in the data directory). An edited, truncated or
//! foreign cursor fails the HMAC; one used with other filters or after it expired fails its
//! own checks: each is a 400 `invalid_cursor`. The issue time is signed, so an expiry
//! cannot be extended.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{AppError, FieldError, Kind};
use crate::service::maintenance::CURSOR_TTL;
use crate::service::{Page, PageRequest};
use crate::store::page::Position;

/// The file in the data directory that holds the cursor key.
pub const CURSOR_KEY_FILE: &str = "cursor.key";

/// The key that signs this installation's cursors.
#[derive(Clone)]
pub struct CursorKey([u8; 32]);

impl CursorKey {
    /// Reads the key from `data_dir`, creating it (owner-only) on the first start.
    pub fn open(data_dir: &Path) -> Result<CursorKey, String> {
        crate::auth::secrets::load_or_create_key(&data_dir.join(CURSOR_KEY_FILE)).map(CursorKey)
    }

    /// The MAC of `payload` (HMAC takes keys of any length, so this is always `Some`).
    fn mac(&self, payload: &str) -> Option<Hmac<Sha256>> {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.0).ok()?;
        mac.update(payload.as_bytes());
        Some(mac)
    }

    fn sign(&self, payload: &str) -> Option<String> {
        let mac = self.mac(payload)?;
        Some(format!(
            "{payload}.{}",
            URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
        ))
    }

    /// The payload of a cursor this key signed, or `None`.
    fn verify<'a>(&self, cursor: &'a str) -> Option<&'a str> {
        let (payload, tag) = cursor.split_once('.')?;
        let tag = URL_SAFE_NO_PAD.decode(tag.as_bytes()).ok()?;
        self.mac(payload)?.verify_slice(&tag).ok().map(|()| payload)
    }
}

/// Default page size.
pub const DEFAULT_LIMIT: i64 = 50;

#[derive(Serialize, Deserialize)]
struct Cursor {
    k: String,
    i: String,
    a: i64,
    f: String,
    t: i64,
}

/// The filters of a list request, in a canonical form.
pub struct Filters(String);

impl Filters {
    /// The filters of `list`, canonical by construction: every field of the filter the
    /// service receives, serialised (list filters come sorted and deduplicated), so no filter
    /// can be left out of the cursor.
    pub fn of(list: &str, filter: &impl Serialize) -> Filters {
        Filters(format!(
            "{list}&{}",
            serde_json::to_string(filter).unwrap_or_default()
        ))
    }

    fn hash(&self) -> String {
        let digest = Sha256::digest(self.0.as_bytes());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }
}

fn invalid(detail: &str) -> AppError {
    AppError::new(Kind::BadRequest, "invalid_cursor", detail).with_errors(vec![FieldError::new(
        "cursor",
        "invalid_cursor",
        detail,
    )])
}

/// A list request: which page, and what the next cursor must carry.
pub struct ListRequest {
    /// The page to read.
    pub page: PageRequest,
    key: CursorKey,
    filters: Filters,
    issued: Option<i64>,
}

impl ListRequest {
    /// Reads `limit` and `cursor`, checking the cursor against `filters`.
    pub fn new(
        key: &CursorKey,
        limit: Option<i64>,
        cursor: Option<String>,
        filters: Filters,
    ) -> Result<ListRequest, AppError> {
        let (page, issued) = request(key, limit, cursor, &filters)?;
        Ok(ListRequest {
            page,
            key: key.clone(),
            filters,
            issued,
        })
    }

    /// The cursor for the page after `page`, or `None` at the end. Every cursor of one
    /// listing keeps the first page's issue time, so the listing expires as a whole.
    pub fn next_cursor<T>(&self, page: &Page<T>) -> Option<String> {
        next(&self.key, page, &self.filters, self.issued)
    }
}

fn request(
    key: &CursorKey,
    limit: Option<i64>,
    cursor: Option<String>,
    filters: &Filters,
) -> Result<(PageRequest, Option<i64>), AppError> {
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=200).contains(&limit) {
        return Err(
            AppError::bad_request("limit must be between 1 and 200.").with_errors(vec![
                FieldError::new("limit", "out_of_range", "must be between 1 and 200"),
            ]),
        );
    }
    let Some(text) = cursor.filter(|c| !c.is_empty()) else {
        return Ok((
            PageRequest {
                after: None,
                as_of: None,
                limit: limit as usize,
            },
            None,
        ));
    };
    let c: Cursor = key
        .verify(text.trim())
        .and_then(|payload| URL_SAFE_NO_PAD.decode(payload.as_bytes()).ok())
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or_else(|| {
            invalid("This cursor is not one this server issued. Start again without a cursor.")
        })?;
    if c.f != filters.hash() {
        return Err(invalid(
            "This cursor was issued for other filters. Repeat the first request's filters, or start again without a cursor.",
        ));
    }
    let age = chrono::Utc::now().timestamp() - c.t;
    if age > CURSOR_TTL.as_secs() as i64 {
        return Err(invalid(
            "This cursor has expired (cursors last 7 days). Start again without a cursor.",
        ));
    }
    let page = PageRequest {
        after: Some(Position { key: c.k, id: c.i }),
        as_of: Some(c.a),
        limit: limit as usize,
    };
    Ok((page, Some(c.t)))
}

fn next<T>(
    key: &CursorKey,
    page: &Page<T>,
    filters: &Filters,
    issued: Option<i64>,
) -> Option<String> {
    if !page.more {
        return None;
    }
    let (_, last) = page.items.last()?;
    let c = Cursor {
        k: last.key.clone(),
        i: last.id.clone(),
        a: page.as_of,
        f: filters.hash(),
        t: issued.unwrap_or_else(|| chrono::Utc::now().timestamp()),
    };
    serde_json::to_vec(&c)
        .ok()
        .and_then(|bytes| key.sign(&URL_SAFE_NO_PAD.encode(bytes)))
}
