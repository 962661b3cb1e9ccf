//! Online pre-check-in: the link in the pre-arrival message opens a page (no account) where
//! the guest completes the registration data of every member of the party, with the same
//! rules as the kiosk and the desk, and says when they arrive. The link is signed for one
//! booking (HMAC-SHA256 under a key innkeep keeps in `link_keys`) and expires the day after
//! its departure. What the guest sends is saved in one transaction: the party's data, and
//! the pre-check-in with the arrival time given (the reservation's `pre_check_in`), which
//! Today shows beside the arrival. In Italy the identity check in person still happens at arrival.

use base64::Engine;
use chrono::NaiveDate;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::db::Tx;
use crate::domain::enums::ActorKind;
use crate::domain::events::EventType;
use crate::domain::reservation::Status;
use crate::domain::scopes::{Scope, ScopeSet};
use crate::error::{AppError, AppResult};
use crate::model::{Actor, Instant, Principal, snapshot};
use crate::service::Services;
use crate::service::party::PartyEdit;
use crate::store;

/// The key's name in `link_keys`.
const KEY: &str = "pre-check-in";

fn key(tx: &Tx) -> AppResult<Vec<u8>> {
    let fresh = crate::auth::secrets::random_bytes::<32>();
    store::link_keys::get_or_insert(tx, KEY, &fresh)
}

fn signature(key: &[u8], payload: &str) -> AppResult<String> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).map_err(AppError::internal)?;
    mac.update(payload.as_bytes());
    let sig = mac.finalize().into_bytes();
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&sig[..18]))
}

/// The link's token for reservation `id` departing `departure`: `id.expiry.signature`.
pub(crate) fn token(tx: &Tx, id: &str, departure: NaiveDate) -> AppResult<String> {
    let until = (departure + chrono::Days::new(1)).format("%Y%m%d");
    let payload = format!("{id}.{until}");
    Ok(format!("{payload}.{}", signature(&key(tx)?, &payload)?))
}

/// Who acts through a pre-check-in link: the guest, on their booking only.
pub fn guest_principal(id: &str) -> Principal {
    Principal {
        actor: Actor {
            kind: ActorKind::Client,
            id: format!("pre-check-in:{id}"),
            name: "The guest, online".into(),
        },
        scopes: ScopeSet::parse("guests:read guests:write reservations:read reservations:write")
            .unwrap_or_default(),
    }
}

/// The booking a token opens, when its signature holds and it has not expired (today, in
/// the property's time); none otherwise, whatever is wrong with it.
pub async fn open(svc: &Services, token: String) -> AppResult<Option<String>> {
    let clock = svc.db().clock().clone();
    svc.db()
        .write(move |tx| {
            let mut parts = token.rsplitn(2, '.');
            let (Some(sig), Some(payload)) = (parts.next(), parts.next()) else {
                return Ok(None);
            };
            let Some((id, until)) = payload.split_once('.') else {
                return Ok(None);
            };
            let expected = signature(&key(tx)?, payload)?;
            // Constant time: the signatures are compared as MACs.
            let same = expected.len() == sig.len()
                && expected
                    .bytes()
                    .zip(sig.bytes())
                    .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                    == 0;
            let today = clock.today_in(&store::settings::get(tx)?.time_zone);
            let valid = NaiveDate::parse_from_str(until, "%Y%m%d").is_ok_and(|u| today < u);
            Ok(
                (same && valid && store::reservations::get(tx, id)?.is_some())
                    .then(|| id.to_string()),
            )
        })
        .await
}

/// Saves what the guest sent through the link of booking `id`: the party's data and when
/// they arrive, in one transaction (the party's errors placed as the desk's are).
pub async fn save(
    svc: &Services,
    id: String,
    edit: PartyEdit,
    arrival_time: Option<String>,
) -> AppResult<()> {
    let p = guest_principal(&id);
    p.require(Scope::GuestsWrite)?;
    let arrival_time = arrival_time
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty());
    if let Some(t) = &arrival_time
        && chrono::NaiveTime::parse_from_str(t, "%H:%M").is_err()
    {
        return Err(AppError::validation(vec![
            crate::error::FieldError::new(
                "arrival_time",
                "invalid_time",
                "must be a time of day such as 18:30",
            )
            .said("problem-arrival-time", vec![]),
        ]));
    }
    let c = svc.compliance().clone();
    svc.db()
        .write(move |tx| {
            let old = store::reservations::get(tx, &id)?
                .ok_or_else(|| AppError::not_found("reservation", &id))?;
            if old.status != Status::Confirmed {
                return Err(AppError::conflict(
                    "not_confirmed",
                    "This booking is no longer waiting for arrival.",
                )
                .with_said(crate::domain::said::Said::plain(
                    "problem-pre-check-in-closed",
                )));
            }
            crate::service::party::apply_in(tx, &p.actor, c.registration.enabled(), &id, edit)?;
            store::reservations::pre_checked_in(tx, &id, arrival_time.as_deref())?;
            let mut r = store::reservations::get(tx, &id)?.unwrap_or(old);
            let before = r.clone();
            r.version += 1;
            r.updated_at = Instant(tx.now_text());
            store::reservations::update(tx, &before, &r)?;
            store::events::record(
                tx,
                &p.actor,
                EventType::ReservationUpdated,
                &r.id,
                &snapshot(&r),
            )?;
            Ok(())
        })
        .await
}

/// The hotel's name, as the guest's page shows it.
pub async fn hotel_name(svc: &Services) -> AppResult<String> {
    svc.db().read(|c| Ok(store::settings::get(c)?.name)).await
}
