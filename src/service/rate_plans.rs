//! Rate plans (`/v1/rate-plans`): created, read, changed, listed; each change recorded as
//! `rate_plan.created` / `rate_plan.updated` in the same transaction.

use crate::db::Tx;
use crate::domain::events::EventType;
use crate::domain::policy::FeeKind;
use crate::domain::pricing::DerivationKind;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::fields::Int;
use crate::model::{
    CancellationPolicy, Instant, NoShowPolicy, OccupancyPrices, Principal, RatePlan,
    RatePlanCreate, RatePlanUpdate, snapshot,
};
use crate::refusal::RatesRefusal;
use crate::service::{
    IfMatch, Page, PageRequest, Services, fail_on, page, set_optional, unchanged,
};
use crate::store;

/// Every rule a plan must keep, checked together (422 naming each field).
fn check(tx: &Tx, p: &RatePlan) -> AppResult<()> {
    let mut errs = Vec::new();
    match (&p.parent_id, &p.derivation) {
        (Some(parent), _) if *parent == p.id => errs.push(FieldError::new(
            "parent_id",
            "invalid",
            "cannot be the plan itself",
        )),
        (Some(parent), derivation) => {
            match store::rate_plans::get(tx, parent)? {
                None => errs.push(FieldError::new(
                    "parent_id",
                    "not_found",
                    "no rate plan has this id",
                )),
                Some(pp) if pp.room_type_id != p.room_type_id => errs.push(FieldError::new(
                    "parent_id",
                    "other_room_type",
                    "must be a plan of the same room type",
                )),
                Some(pp) if pp.parent_id.is_some() => errs.push(FieldError::new(
                    "parent_id",
                    "derived_parent",
                    format!(
                        "plan {} takes its own prices from another plan; derive from a plan with its own prices",
                        pp.code
                    ),
                )),
                Some(_) => {}
            }
            match derivation {
                None => errs.push(FieldError::new(
                    "derivation",
                    "required",
                    "is required with parent_id",
                )),
                Some(d)
                    if d.kind == DerivationKind::Percent
                        && !(-9_999..=100_000).contains(&d.value.0) =>
                {
                    errs.push(FieldError::new(
                        "derivation.value",
                        "out_of_range",
                        "a percentage must be between -9999 (-99.99 %) and 100000 (+1000 %)",
                    ))
                }
                Some(_) => {}
            }
            if p.default_price.is_some() {
                errs.push(FieldError::new(
                    "default_price",
                    "derived_price",
                    "a derived plan's prices follow its parent: leave it out",
                ));
            }
        }
        (None, Some(_)) => errs.push(FieldError::new(
            "derivation",
            "not_allowed",
            "only a plan with parent_id is derived",
        )),
        (None, None) => {}
    }
    let percent = |f: &FeeKind, p: &Option<Int<1, 10_000>>, field: &str, errs: &mut Vec<_>| {
        if (*f == FeeKind::Percent) != p.is_some() {
            errs.push(FieldError::new(
                field,
                if p.is_some() {
                    "not_allowed"
                } else {
                    "required"
                },
                "is given with the fee percent, and only then",
            ));
        }
    };
    percent(
        &p.cancellation.fee,
        &p.cancellation.percent,
        "cancellation.percent",
        &mut errs,
    );
    percent(
        &p.no_show.fee,
        &p.no_show.percent,
        "no_show.percent",
        &mut errs,
    );
    if let Some(d) = &p.deposit {
        let wants = d.kind == crate::domain::policy::DepositKind::Percent;
        if wants != d.percent.is_some() {
            errs.push(FieldError::new(
                "deposit.percent",
                if wants { "required" } else { "not_allowed" },
                "is given with the deposit kind percent, and only then",
            ));
        }
    }
    fail_on(errs)?;
    if let Some(other) = store::rate_plans::id_by_code(tx, &p.room_type_id, &p.code)?
        && other != p.id
    {
        return Err(RatesRefusal::PlanExists {
            code: p.code.clone(),
        }
        .into());
    }
    if p.parent_id.is_some() {
        let children = store::rate_plans::children(tx, &p.id)?;
        if !children.is_empty() {
            return Err(RatesRefusal::HasChildren {
                codes: children.join(", "),
            }
            .into());
        }
    }
    Ok(())
}

/// Creates a plan.
pub async fn create(svc: &Services, p: &Principal, input: RatePlanCreate) -> AppResult<RatePlan> {
    p.require(Scope::RatesWrite)?;
    let actor = p.actor.clone();
    svc.db()
        .write(move |tx| {
            let Some(room_type) = store::room_types::get(tx, &input.room_type_id.0)? else {
                return Err(AppError::validation(vec![FieldError::new(
                    "room_type_id",
                    "not_found",
                    "no room type has this id",
                )]));
            };
            let now = Instant(tx.now_text());
            let plan = RatePlan {
                id: crate::ids::new("rp"),
                room_type_id: room_type.id.clone(),
                code: input.code.into(),
                name: input.name,
                parent_id: input.parent_id.map(Into::into),
                derivation: input.derivation,
                default_price: input.default_price.map(|p| p.0),
                occupancy: input.occupancy.unwrap_or(OccupancyPrices {
                    base_adults: Int(room_type.max_occupancy.clamp(1, 2)),
                    extra_adult: None,
                    children: None,
                    extra_bed: None,
                }),
                breakfast: input.breakfast,
                cancellation: input.cancellation.unwrap_or(CancellationPolicy {
                    free_until_days: Some(Int(1)),
                    fee: FeeKind::FirstNight,
                    percent: None,
                }),
                no_show: input.no_show.unwrap_or(NoShowPolicy {
                    fee: FeeKind::FirstNight,
                    percent: None,
                }),
                deposit: input.deposit,
                sold: input.sold.unwrap_or(true),
                version: 1,
                created_at: now.clone(),
                updated_at: now,
            };
            check(tx, &plan)?;
            store::rate_plans::insert(tx, &plan)?;
            let kind = EventType::RatePlanCreated;
            store::events::record(tx, &actor, kind, &plan.id, &snapshot(&plan))?;
            Ok(plan)
        })
        .await
}

/// One plan.
pub async fn get(svc: &Services, p: &Principal, id: String) -> AppResult<RatePlan> {
    p.require(Scope::RatesRead)?;
    svc.db()
        .read(move |c| {
            store::rate_plans::get(c, &id)?.ok_or_else(|| AppError::not_found("rate plan", &id))
        })
        .await
}

/// Changes a plan.
pub async fn update(
    svc: &Services,
    p: &Principal,
    id: String,
    if_match: Option<IfMatch>,
    input: RatePlanUpdate,
) -> AppResult<RatePlan> {
    p.require(Scope::RatesWrite)?;
    let actor = p.actor.clone();
    svc.db()
        .write(move |tx| {
            let old = store::rate_plans::get(tx, &id)?
                .ok_or_else(|| AppError::not_found("rate plan", &id))?;
            IfMatch::check(if_match.as_ref(), old.version)?;
            let mut plan = old.clone();
            input.code.apply(&mut plan.code);
            input.name.apply(&mut plan.name);
            let unparented = matches!(input.parent_id, poem_openapi::types::MaybeUndefined::Null);
            set_optional(&mut plan.parent_id, input.parent_id);
            set_optional(&mut plan.derivation, input.derivation);
            if unparented {
                plan.derivation = None;
            }
            set_optional(&mut plan.default_price, input.default_price);
            input.occupancy.apply(&mut plan.occupancy);
            set_optional(&mut plan.breakfast, input.breakfast);
            input.cancellation.apply(&mut plan.cancellation);
            input.no_show.apply(&mut plan.no_show);
            set_optional(&mut plan.deposit, input.deposit);
            input.sold.apply(&mut plan.sold);
            if unchanged(&old, &plan) {
                return Ok(old);
            }
            check(tx, &plan)?;
            plan.version += 1;
            plan.updated_at = Instant(tx.now_text());
            store::rate_plans::update(tx, &old, &plan)?;
            let kind = EventType::RatePlanUpdated;
            store::events::record(tx, &actor, kind, &plan.id, &snapshot(&plan))?;
            Ok(plan)
        })
        .await
}

/// A page of plans.
pub async fn list(svc: &Services, p: &Principal, req: PageRequest) -> AppResult<Page<RatePlan>> {
    p.require(Scope::RatesRead)?;
    page(svc.db(), req, |c, after, as_of, limit| {
        store::rate_plans::list(c, after, as_of, limit)
    })
    .await
}
