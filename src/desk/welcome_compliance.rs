//! The first-run page's compliance step: guest registration with Alloggiati Web (Italy) and
//! fiscal receipts with CIS (Croatia), each chosen by a tick and asking what `innkeep setup`
//! asks. A scheme already configured in a config file is only named. The rules are the
//! service's (`service::setup_compliance`); secrets and the certificate file are never
//! shown again.

use std::collections::HashMap;

use super::welcome::{Input, input};
use crate::error::FieldError;
use crate::i18n::T;
use crate::model::ComplianceSchemes;
use crate::service::setup_compliance::ComplianceAnswers;

/// One scheme of the step.
pub(super) struct Scheme {
    /// The tick's form name (`alloggiati`, `cis`).
    pub choice: &'static str,
    /// The fieldset's legend, the tick's label and the hint under it.
    pub legend: String,
    pub label: String,
    pub hint: String,
    /// Ticked.
    pub chosen: bool,
    /// Already configured in a config file: nothing is asked.
    pub configured: bool,
    /// Its settings.
    pub fields: Vec<Input>,
    /// One more tick (form name, label, ticked).
    pub option: (&'static str, String, bool),
}

/// The fields of Alloggiati Web: (form name, label key).
const ALLOGGIATI: &[(&str, &str)] = &[
    ("username", "welcome-alloggiati-username"),
    ("password_alloggiati", "welcome-alloggiati-password"),
    ("ws_key", "welcome-alloggiati-ws-key"),
];

/// The fields of eVisitor: (form name, label key).
const EVISITOR: &[(&str, &str)] = &[
    ("facility", "welcome-evisitor-facility"),
    ("evisitor_username", "welcome-evisitor-username"),
    ("evisitor_password", "welcome-evisitor-password"),
    ("evisitor_api_key", "welcome-evisitor-api-key"),
];

/// The fields of CIS: (form name, label key).
const CIS: &[(&str, &str)] = &[
    ("certificate", "welcome-cis-certificate"),
    ("certificate_password", "welcome-cis-password"),
    ("oib", "welcome-cis-oib"),
    ("operator_oib", "welcome-cis-operator-oib"),
    ("premises", "welcome-cis-premises"),
    ("device", "welcome-cis-device"),
];

fn ticked(form: &HashMap<String, String>, name: &str) -> bool {
    form.get(name).is_some_and(|v| !v.is_empty())
}

/// The step as the page shows it, with what was typed and every error at its field.
pub(super) fn step(
    t: &T,
    now: &ComplianceSchemes,
    form: &HashMap<String, String>,
    errors: &[FieldError],
) -> Vec<Scheme> {
    let fields = |list: &[(&str, &str)]| {
        list.iter()
            .map(|(n, l)| input(t, form, errors, (n.to_string(), n.to_string(), l)))
            .collect()
    };
    vec![
        Scheme {
            choice: "alloggiati",
            legend: t.t("welcome-registration"),
            label: t.t("welcome-alloggiati"),
            hint: t.t("welcome-alloggiati-hint"),
            chosen: ticked(form, "alloggiati"),
            configured: now.registration != "none",
            fields: fields(ALLOGGIATI),
            option: (
                "test_only",
                t.t("welcome-alloggiati-test"),
                ticked(form, "test_only"),
            ),
        },
        Scheme {
            choice: "evisitor",
            legend: t.t("welcome-registration-hr"),
            label: t.t("welcome-evisitor"),
            hint: t.t("welcome-evisitor-hint"),
            chosen: ticked(form, "evisitor"),
            configured: now.registration != "none",
            fields: fields(EVISITOR),
            option: (
                "evisitor_test",
                t.t("welcome-evisitor-test"),
                ticked(form, "evisitor_test"),
            ),
        },
        Scheme {
            choice: "cis",
            legend: t.t("welcome-fiscal"),
            label: t.t("welcome-cis"),
            hint: t.t("welcome-cis-hint"),
            chosen: ticked(form, "cis"),
            configured: now.fiscal != "none",
            fields: fields(CIS),
            option: (
                "outside_vat",
                t.t("welcome-cis-outside-vat"),
                ticked(form, "outside_vat"),
            ),
        },
    ]
}

/// The step's answers from the form and the uploaded certificate.
pub(super) fn answers_of(
    form: &HashMap<String, String>,
    certificate: Option<Vec<u8>>,
) -> ComplianceAnswers {
    let get = |k: &str| form.get(k).cloned().unwrap_or_default();
    ComplianceAnswers {
        alloggiati: ticked(form, "alloggiati"),
        username: get("username"),
        password: get("password_alloggiati"),
        ws_key: get("ws_key"),
        test_only: ticked(form, "test_only"),
        evisitor: ticked(form, "evisitor"),
        facility: get("facility"),
        evisitor_username: get("evisitor_username"),
        evisitor_password: get("evisitor_password"),
        evisitor_test: ticked(form, "evisitor_test"),
        evisitor_api_key: get("evisitor_api_key"),
        cis: ticked(form, "cis"),
        certificate,
        certificate_password: get("certificate_password"),
        oib: get("oib"),
        operator_oib: get("operator_oib"),
        premises: get("premises"),
        device: get("device"),
        outside_vat: ticked(form, "outside_vat"),
    }
}
