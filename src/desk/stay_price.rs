//! What a reservation's page says of its price (screen 4): the price of each night when
//! they differ (with the total), else the nightly rate, and the rate plan with its terms:
//! free cancellation until a day or non-refundable, and the deposit asked; and the extras
//! on offer to add from the list.

use super::DeskState;
use crate::i18n::{Arg, T};
use crate::model::Reservation;
use crate::service::desk::DeskSession;
use crate::service::offers::{cancellation, deposit};

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
    let Some(plan_id) = &r.rate_plan_id else {
        return out;
    };
    let Ok(plan) = crate::service::rate_plans::get(&state.svc, &s.principal, plan_id.clone()).await
    else {
        return out;
    };
    let prices: Vec<i64> = r.nights.iter().map(|n| n.price).collect();
    let mut terms = vec![format!(
        "{} ({})",
        plan.name.in_language(t.lang().tag()),
        plan.code
    )];
    terms.push(match cancellation(&plan).free_until(r.arrival.0) {
        Some(d) => t.with("offer-free-until", &[("day", Arg::Text(t.short_date(d)))]),
        None => t.t("offer-non-refundable"),
    });
    if let Some(d) = deposit(&plan) {
        let due = d.due(
            r.arrival.0,
            r.created_at
                .0
                .get(..10)
                .and_then(|x| x.parse().ok())
                .unwrap_or(r.arrival.0),
        );
        terms.push(t.with(
            "offer-deposit",
            &[
                ("amount", Arg::Text(money(d.amount(&prices)))),
                ("day", Arg::Text(t.short_date(due))),
            ],
        ));
    }
    out.push((t.t("field-rate-plan"), terms.join(" · ")));
    out
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
