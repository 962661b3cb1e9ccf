//! Property settings.

use crate::clock;
use crate::db::Db;
use crate::error::{AppResult, FieldError};
use crate::model::{Instant, Settings, SettingsUpdate};
use crate::service::{IfMatch, fail_on, set_optional, set_required, unchanged};
use crate::store;

/// The current settings.
pub async fn get(db: &Db) -> AppResult<Settings> {
    db.read(store::settings::get).await
}

/// Applies changes to the settings.
pub async fn update(
    db: &Db,
    if_match: Option<IfMatch>,
    input: SettingsUpdate,
) -> AppResult<Settings> {
    db.write(move |tx| {
        let old = store::settings::get(tx)?;
        IfMatch::check(if_match.as_ref(), old.version)?;
        let mut s = old.clone();
        let mut errs = Vec::new();
        set_required(&mut s.name, input.name, "name", &mut errs);
        set_required(&mut s.time_zone, input.time_zone, "time_zone", &mut errs);
        set_required(&mut s.currency, input.currency, "currency", &mut errs);
        set_optional(&mut s.country, input.country);
        set_optional(&mut s.city_tax, input.city_tax);
        set_required(
            &mut s.invoice_series,
            input.invoice_series,
            "invoice_series",
            &mut errs,
        );
        set_required(
            &mut s.default_tax_rate,
            input.default_tax_rate,
            "default_tax_rate",
            &mut errs,
        );
        if !clock::is_time_zone(&s.time_zone) {
            errs.push(FieldError::new(
                "time_zone",
                "invalid_time_zone",
                "must be an IANA time zone such as Europe/Rome",
            ));
        }
        if let Err(e) = check_series(&s.invoice_series) {
            errs.push(e);
        }
        fail_on(errs)?;
        if unchanged(&old, &s) {
            return Ok(old);
        }
        s.version += 1;
        s.updated_at = Instant(clock::now_text());
        store::settings::save(tx, &s)?;
        Ok(s)
    })
    .await
}

/// A series pattern: letters, digits, `-`, `_`, `/` and the `{year}` placeholder.
fn check_series(pattern: &str) -> Result<(), FieldError> {
    let rest = pattern.replace("{year}", "");
    if rest
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_/".contains(c))
    {
        Ok(())
    } else {
        Err(FieldError::new(
            "invoice_series",
            "invalid_pattern",
            "may contain letters, digits, -, _, / and the placeholder {year}",
        ))
    }
}
