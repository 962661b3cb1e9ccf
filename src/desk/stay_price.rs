//! What a reservation's page says of its price (screen 4): the price of each night when
//! they differ (with the total), else the nightly rate, and the rate plan with its terms:
//! free cancellation until a day or non-refundable, and its deposit (asked, paid); and the
//! extras on offer to add from the list.

use super::DeskState;
use crate::i18n::{Arg, T};
use crate::model::Reservation;
use crate::service::desk::DeskSession;
use crate::service::offers::cancellation;

/// The price facts of `r`: (label, words).
pub async fn facts(
    state: &DeskState,
    s: &DeskSession,
    t: &T,
    r: &Reservation,
) -> Vec<(String, String)> {
    let money = |m: i64| t.money(m, &r.currency);
    let uniform = r.nights.iter().all(|n| n.price == r.nightly_rate);
    let mut price = if uniform {
        money(r.nightly_rate)
    } else {
        let each: Vec<String> = r
            .nights
            .iter()
            .map(|n| format!("{} {}", t.short_date(n.date.0), money(n.price)))
            .collect();
        let total = r.nights.iter().map(|n| n.price).sum();
        format!(
            "{} · {}",
            each.join(", "),
            t.with("offer-total", &[("total", Arg::Text(money(total)))])
        )
    };
    if let Some(why) = &r.rate_note {
        price.push_str(&format!(" ({why})"));
    }
    let mut out = vec![(t.t("field-rate"), price)];
    if let Some(plan) = plan_terms(state, s, t, r).await {
        out.push((t.t("field-rate-plan"), plan));
    }
    out.extend(super::deposits::fact(t, r));
    out
}

/// The rate plan in words with its cancellation terms, when `r` was booked on one.
async fn plan_terms(state: &DeskState, s: &DeskSession, t: &T, r: &Reservation) -> Option<String> {
    let plan_id = r.rate_plan_id.as_ref()?;
    let plan = crate::service::rate_plans::get(&state.svc, &s.principal, plan_id.clone())
        .await
        .ok()?;
    let mut terms = vec![format!(
        "{} ({})",
        plan.name.in_language(t.lang().tag()),
        plan.code
    )];
    terms.push(match cancellation(&plan).free_until(r.arrival.0) {
        Some(d) => t.with("offer-free-until", &[("day", Arg::Text(t.short_date(d)))]),
        None => t.t("offer-non-refundable"),
    });
    Some(terms.join(" · "))
}

/// The extras on offer, (id, "name · price per unit"), for the folio's list.
pub async fn extra_choices(
    state: &DeskState,
    s: &DeskSession,
    t: &T,
    currency: &str,
) -> Vec<(String, String)> {
    let Ok(page) = crate::service::extras::list(
        &state.svc,
        &s.principal,
        crate::service::PageRequest::first(200),
    )
    .await
    else {
        return Vec::new();
    };
    page.items
        .into_iter()
        .map(|(e, _)| e)
        .filter(|e| e.active)
        .map(|e| {
            let unit = t.t(&format!("extra-unit-{}", e.unit.as_str()));
            let price = t.money(e.price, currency);
            (
                e.id.clone(),
                format!("{} · {price} {unit}", e.name.in_language(t.lang().tag())),
            )
        })
        .collect()
}
