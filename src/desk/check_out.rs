//! Screen 6, check-out (`/reservations/{id}/check-out`): the bill as it will be issued (the
//! nights, the folio, the city tax, the total), the payment taken now (the total, prefilled,
//! by one method, or split between two), or "pays later" (a company, a bank transfer), and
//! one button that checks out, issues the invoice and records the payment in the same
//! action, then shows it ready to print. The same use case as `POST /v1/check-out`; the
//! preview reads the same rules without changing anything.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::json;

use serde::Deserialize;

use super::posted::ticked;
use super::{DeskState, Outcome, Shell, failed_read, open, open_form, or_answer, page};
use crate::domain::enums::PaymentMethod;
use crate::domain::money;
use crate::error::Kind;
use crate::i18n::{Arg, T};
use crate::model::CheckOut;
use crate::model::input::FromJson;
use crate::service::desk::DeskSession;
use crate::service::stays;
use crate::web;

#[derive(Template)]
#[template(path = "desk/check_out.html")]
struct CheckOutPage {
    shell: Shell,
    title: String,
    id: String,
    problem: Option<String>,
    /// Said when the guest leaves before the booked departure.
    early: Option<String>,
    /// (description, quantity, unit price, amount).
    lines: Vec<(String, i64, String, String)>,
    total: String,
    /// (value, label) of the payment methods.
    methods: Vec<(String, String)>,
    /// The payment rows as typed (the first prefilled with the total), and whether the
    /// guest pays later.
    rows: Vec<PayRow>,
    pay_later: bool,
    /// The errors, by form field.
    errors: std::collections::HashMap<&'static str, String>,
    /// Who the invoice goes to: the guest or a business ((value, label, chosen)).
    bill_kinds: Vec<(String, String, bool)>,
    /// The business's fields.
    fields: Vec<super::guest_form::FormField>,
    /// Italy with a cash register: invoice or receipt ((value, label, chosen)); empty
    /// elsewhere.
    documents: Vec<(&'static str, String, bool)>,
}

/// One payment row of the form: its fields' names, what they hold, its label's key.
struct PayRow {
    amount_name: &'static str,
    method_name: &'static str,
    amount: String,
    method: String,
    label: &'static str,
}

impl CheckOutPage {
    fn err(&self, field: &str) -> Option<&String> {
        self.errors.get(field)
    }
}

/// The form's fields and the API paths whose errors they show.
const FIELDS: &[(&str, &str)] = &[
    ("amount", "payments[0].amount"),
    ("payment_method", "payments[0].method"),
    ("split_amount", "payments[1].amount"),
    ("split_method", "payments[1].method"),
    ("document", "receipt"),
];

/// The payment methods as the form offers them: (value, label).
pub(super) fn methods(t: &T) -> Vec<(String, String)> {
    PaymentMethod::ALL
        .iter()
        .map(|m| {
            (
                m.as_str().to_string(),
                t.t(&format!("payment-{}", m.as_str())),
            )
        })
        .collect()
}

async fn render(
    state: &DeskState,
    s: &DeskSession,
    t: T,
    id: String,
    typed: Option<&std::collections::HashMap<String, String>>,
    outcome: Outcome,
) -> Response {
    let Outcome {
        status,
        errors,
        problem,
    } = outcome;
    let mut early = None;
    let preview = stays::bill_preview(&state.svc, &s.principal, id.clone()).await;
    let (r, draft, problem) = match preview {
        Ok((r, draft, booked)) => {
            if r.night_count < booked {
                early = Some(t.with(
                    "check-out-early",
                    &[
                        ("nights", Arg::Text(t.n("nights", r.night_count))),
                        ("booked", Arg::Text(t.n("nights", booked))),
                    ],
                ));
            }
            (r, draft, problem)
        }
        Err(e) if matches!(e.kind, Kind::NotFound | Kind::Forbidden | Kind::Internal) => {
            return failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today"));
        }
        // A bill that cannot be made (a city tax in another currency) says why.
        Err(e) => match crate::service::reservations::get(&state.svc, &s.principal, id.clone())
            .await
        {
            Ok(r) => (
                r,
                Vec::new(),
                problem.or(Some(super::rules::detail(&t, &e))),
            ),
            Err(e) => return failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
        },
    };
    let mut amounts = Vec::new();
    let lines = draft
        .iter()
        .map(|l| {
            let a = money::line(l.quantity, l.unit_price, l.tax_rate).unwrap_or_default();
            amounts.push(a);
            (
                l.description.clone(),
                l.quantity,
                t.money(l.unit_price, &r.currency),
                t.money(a.gross, &r.currency),
            )
        })
        .collect();
    let total = money::total(&amounts).unwrap_or_default();
    let get = |k: &str| typed.and_then(|f| f.get(k)).cloned().unwrap_or_default();
    let mut shown = std::collections::HashMap::new();
    for e in &errors {
        let field = FIELDS
            .iter()
            .find(|(_, path)| *path == e.field)
            .map(|(name, _)| *name)
            .or((e.field == "payment_method" || e.field == "payments").then_some("payment_method"));
        if let Some(field) = field {
            let words = if field.ends_with("method") {
                t.t("error-payment-method")
            } else {
                super::rules::say(&t, e)
            };
            shown.entry(field).or_insert(words);
        }
    }
    let body = CheckOutPage {
        title: t.with("check-out-title", &[("code", Arg::Text(r.code.clone()))]),
        id,
        problem,
        early,
        lines,
        total: t.money(total.gross, &r.currency),
        methods: methods(&t),
        rows: vec![
            PayRow {
                amount_name: "amount",
                method_name: "payment_method",
                amount: match typed {
                    Some(f) => f.get("amount").cloned().unwrap_or_default(),
                    None => money::format_amount(total.gross),
                },
                method: get("payment_method"),
                label: "field-payment-amount",
            },
            PayRow {
                amount_name: "split_amount",
                method_name: "split_method",
                amount: get("split_amount"),
                method: get("split_method"),
                label: "check-out-split",
            },
        ],
        pay_later: get("pay_later") == "yes",
        documents: if state.svc.compliance().fiscal.name() == crate::compliance::rt::NAME {
            let chosen = get("document");
            [
                ("", "check-out-document-auto"),
                ("receipt", "check-out-document-receipt"),
                ("invoice", "check-out-document-invoice"),
            ]
            .into_iter()
            .map(|(v, key)| (v, t.t(key), chosen == v))
            .collect()
        } else {
            Vec::new()
        },
        bill_kinds: super::bill_to_form::kinds(&t, typed),
        fields: super::bill_to_form::fields(&t, typed, &errors),
        errors: shown,
        shell: Shell::new(s, t, "today"),
    };
    page(status, &body)
}

/// The check-out form.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct CheckOutForm {
    /// The amount taken now; absent from a form without amounts (the method alone).
    amount: Option<String>,
    /// How it is paid.
    payment_method: String,
    /// The split row: a second amount and its method.
    split_amount: String,
    split_method: String,
    /// The guest pays later (a company, a bank transfer).
    #[serde(deserialize_with = "ticked")]
    pay_later: bool,
    /// Italy with a cash register: `receipt`, `invoice`, or empty (by the buyer).
    document: String,
}

impl CheckOutForm {
    /// The check-out request the form asks for: "pays later", or the payments taken now
    /// (the amounts as people type them; the split row only when filled in), or, from a
    /// form without amounts, the method alone. Amounts that are not amounts are refused by
    /// field.
    fn request(&self, id: &str) -> (serde_json::Value, Vec<crate::error::FieldError>) {
        let method = self.payment_method.trim();
        let mut input = json!({"reservation_id": id});
        let mut errors = Vec::new();
        if self.pay_later {
            input["pay_later"] = json!(true);
            if !method.is_empty() {
                input["payment_method"] = json!(method);
            }
        } else if let Some(amount) = &self.amount {
            let mut payments = Vec::new();
            let rows = [
                (amount.trim(), method),
                (self.split_amount.trim(), self.split_method.trim()),
            ];
            for (i, (amount, how)) in rows.into_iter().enumerate() {
                if i > 0 && amount.is_empty() && how.is_empty() {
                    continue;
                }
                match money::parse_amount(amount) {
                    Some(minor) if minor > 0 => {
                        payments.push(json!({"amount": minor, "method": how}));
                    }
                    _ => errors.push(
                        crate::error::FieldError::new(
                            format!("payments[{i}].amount"),
                            "invalid_amount",
                            "must be an amount above zero, such as 95 or 95.50",
                        )
                        .said("problem-amount-above-zero", vec![]),
                    ),
                }
            }
            input["payments"] = json!(payments);
        } else {
            input["payment_method"] = json!(method);
        }
        match self.document.as_str() {
            "receipt" => input["receipt"] = json!(true),
            "invoice" => input["receipt"] = json!(false),
            _ => {}
        }
        (input, errors)
    }
}

/// `GET /reservations/{id}/check-out`.
#[handler]
pub async fn page_of(
    req: &Request,
    Path(id): Path<String>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::FRONT_DESK).await);
    render(&state, &s, t, id, None, Outcome::fresh()).await
}

/// `POST /reservations/{id}/check-out`: checks out and issues the invoice.
#[handler]
pub async fn submit(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<CheckOutForm>(req, body, &state, super::FRONT_DESK).await);
    let form = posted.typed;
    let (mut input, mut errors) = posted.fields.request(&id);
    if let Some(bill_to) = super::bill_to_form::body(&form) {
        input["bill_to"] = bill_to;
    }
    let parsed = CheckOut::from_json(&input, "", &mut errors).filter(|_| errors.is_empty());
    let Some(input) = parsed else {
        let problem = Some(t.n("form-errors", errors.len().max(1) as i64));
        return render(
            &state,
            &s,
            t,
            id,
            Some(&form),
            Outcome::refused(StatusCode::UNPROCESSABLE_ENTITY, errors, problem),
        )
        .await;
    };
    match stays::check_out(&state.svc, &s.principal, input).await {
        Ok(done) => web::redirect(
            StatusCode::SEE_OTHER,
            &format!("/invoices/{}?done=checked-out", done.invoice.id),
        ),
        Err(e)
            if matches!(
                e.kind,
                Kind::Conflict | Kind::Unprocessable | Kind::BadRequest
            ) =>
        {
            let status = if e.kind == Kind::Conflict {
                StatusCode::CONFLICT
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            render(
                &state,
                &s,
                t,
                id,
                Some(&form),
                Outcome::refused(status, e.errors.clone(), Some(super::rules::detail(&t, &e))),
            )
            .await
        }
        Err(e) => failed_read(&t, &e, "not-found-reservation", ("/", "back-to-today")),
    }
}
