//! Property settings.

use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::Principal;
use crate::model::{Instant, Settings, SettingsUpdate};
use crate::service::Services;
use crate::service::{IfMatch, set_optional, unchanged};
use crate::store;

/// The current settings, with the compliance schemes in force.
pub async fn get(svc: &Services, p: &Principal) -> AppResult<Settings> {
    p.require(Scope::Admin)?;
    let db = svc.db();
    let c = svc.compliance();
    let mut s = db.read(store::settings::get).await?;
    s.compliance = c.schemes();
    Ok(s)
}

/// The property's name, shown to anyone who reaches the sign-in page (it is on every
/// invoice too): no scope needed.
pub async fn property_name(svc: &Services) -> AppResult<String> {
    svc.db().read(|c| Ok(store::settings::get(c)?.name)).await
}

/// The property's country (ISO 3166-1 alpha-2), when set: it decides which national
/// reports a page offers, so any signed-in user may know it.
pub async fn country(svc: &Services) -> AppResult<Option<String>> {
    svc.db()
        .read(|c| Ok(store::settings::get(c)?.country))
        .await
}

/// Applies changes to the settings.
pub async fn update(
    svc: &Services,
    p: &Principal,
    if_match: Option<IfMatch>,
    input: SettingsUpdate,
) -> AppResult<Settings> {
    p.require(Scope::Admin)?;
    let db = svc.db();
    let c = svc.compliance();
    let schemes = c.schemes();
    let mut s = db
        .write(move |tx| {
            let old = store::settings::get(tx)?;
            IfMatch::check(if_match.as_ref(), old.version)?;
            let mut s = old.clone();
            input.name.apply(&mut s.name);
            input.time_zone.apply(&mut s.time_zone);
            input.currency.apply(&mut s.currency);
            set_optional(&mut s.country, input.country);
            set_optional(&mut s.city_tax, input.city_tax);
            input.invoice_series.apply(&mut s.invoice_series);
            input.default_tax_rate.apply(&mut s.default_tax_rate);
            set_optional(&mut s.seller, input.seller);
            set_optional(&mut s.cin, input.cin);
            if let Some(seller) = &s.seller {
                let errors = crate::domain::seller::check(
                    s.country.as_deref(),
                    &seller.vat_id.0,
                    seller.address.line1.is_some(),
                    seller.address.city.is_some(),
                );
                if !errors.is_empty() {
                    let errors = errors.into_iter().map(|(f, r)| FieldError::of(f, r));
                    return Err(AppError::validation(errors.collect()));
                }
            }
            if unchanged(&old, &s) {
                return Ok(old);
            }
            s.version += 1;
            s.updated_at = Instant(tx.now_text());
            store::settings::save(tx, &s)?;
            Ok(s)
        })
        .await?;
    s.compliance = schemes;
    Ok(s)
}
