//! The corrected invoice, from a reversed invoice's page: who it goes to (the guest as on
//! their page now, or a business with its particulars, prefilled from the reversed invoice)
//! and one button (`POST /invoices/{id}/reissue`, the use case of `POST /v1/invoices` with
//! `reissues_invoice_id`). How an invoice the national system refused is put right.

use std::collections::HashMap;
use std::sync::Arc;

use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde_json::json;

use super::invoice::Typed;
use super::invoice_actions::refused;
use super::{DeskState, open_form, or_answer};
use crate::domain::enums::BuyerKind;
use crate::error::FieldError;
use crate::i18n::T;
use crate::model::input::FromJson;
use crate::model::{BillTo, InvoiceCreate};
use crate::service::invoices;
use crate::web;

/// The corrected-invoice form as the page shows it.
pub(super) struct ReissueForm {
    /// Open when the form came back refused.
    pub(super) open: bool,
    pub(super) bill_kinds: Vec<(String, String, bool)>,
    pub(super) fields: Vec<super::guest_form::FormField>,
}

/// The reversed invoice's buyer as the form's fields hold it (a business's particulars).
fn typed_from(b: &BillTo) -> HashMap<String, String> {
    let mut m = HashMap::new();
    if b.kind != Some(BuyerKind::Business) {
        return m;
    }
    let mut put = |k: &str, v: Option<&str>| {
        if let Some(v) = v {
            m.insert(k.to_string(), v.to_string());
        }
    };
    put(super::bill_to_form::KIND, Some("business"));
    put("bill_name", Some(&b.name.0));
    put("bill_vat_id", b.vat_id.as_ref().map(|v| v.0.as_str()));
    put("bill_tax_code", b.tax_code.as_ref().map(|v| v.0.as_str()));
    put("bill_sdi_code", b.sdi_code.as_ref().map(|v| v.0.as_str()));
    put("bill_pec", b.pec.as_ref().map(|v| v.0.as_str()));
    if let Some(a) = &b.address {
        put("bill_line1", a.line1.as_ref().map(|v| v.0.as_str()));
        put("bill_city", a.city.as_ref().map(|v| v.0.as_str()));
        put(
            "bill_postal_code",
            a.postal_code.as_ref().map(|v| v.0.as_str()),
        );
        put("bill_country", a.country.as_ref().map(|v| v.0.as_str()));
    }
    m
}

/// The form for a reversed invoice not yet replaced.
pub(super) fn form(t: &T, original: &BillTo, typed: &Typed, errors: &[FieldError]) -> ReissueForm {
    let prefilled = typed_from(original);
    let map = typed.reissue.as_ref().unwrap_or(&prefilled);
    ReissueForm {
        open: typed.reissue.is_some(),
        bill_kinds: super::bill_to_form::kinds(t, Some(map)),
        fields: super::bill_to_form::fields(t, Some(map), errors),
    }
}

/// `POST /invoices/{id}/reissue`: issues the corrected invoice and shows it.
#[handler]
pub async fn reissue(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, posted) =
        or_answer!(open_form::<HashMap<String, String>>(req, body, &state, super::BILLING).await);
    let form = posted.typed;
    let mut input = json!({"reissues_invoice_id": id});
    if let Some(b) = super::bill_to_form::body(&form) {
        input["bill_to"] = b;
    }
    let typed = Typed {
        reissue: Some(form),
        ..Typed::default()
    };
    let mut errors = Vec::new();
    let Some(input) =
        InvoiceCreate::from_json(&input, "", &mut errors).filter(|_| errors.is_empty())
    else {
        return refused(
            &state,
            &s,
            t,
            id,
            typed,
            crate::error::AppError::validation(errors),
        )
        .await;
    };
    match invoices::create(&state.svc, &s.principal, input).await {
        Ok(new) => web::redirect(
            poem::http::StatusCode::SEE_OTHER,
            &format!("/invoices/{}?done=reissued", new.id),
        ),
        Err(e) => refused(&state, &s, t, id, typed, e).await,
    }
}
