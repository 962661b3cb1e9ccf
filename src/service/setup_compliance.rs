//! The compliance step of the first-run page: which national schemes the hotel uses and
//! their credentials, checked by the rules `[compliance]` holds to, written to the data
//! directory's own `innkeep.toml` (owner-only, as `innkeep setup` writes it; an uploaded
//! fiscal certificate beside it), then loaded exactly as the server loads it at start and
//! put in force without a restart.

use std::path::Path;
use std::sync::Arc;

use crate::compliance::Compliance;
use crate::compliance::live::Switch;
use crate::config::own::OwnEdit;
use crate::config::{self, Flags};
use crate::error::{AppError, AppResult, FieldError};

/// The fiscal certificate's file in the data directory, when the first-run page took it.
pub const CERTIFICATE_FILE: &str = "fiscal-certificate.p12";

/// The largest certificate file taken (a .p12 is a few kilobytes).
pub const MAX_CERTIFICATE: usize = 256 * 1024;

/// What the compliance step asks, as typed.
#[derive(Debug, Clone, Default)]
pub struct ComplianceAnswers {
    /// Register guests with Alloggiati Web.
    pub alloggiati: bool,
    /// Its user name.
    pub username: String,
    /// Its password.
    pub password: String,
    /// Its web-service key (WSKEY).
    pub ws_key: String,
    /// Only test the registrations (the service's Test instead of Send).
    pub test_only: bool,
    /// Register guests with eVisitor (Croatia).
    pub evisitor: bool,
    /// The facility code eVisitor gave the property.
    pub facility: String,
    /// The eVisitor user name.
    pub evisitor_username: String,
    /// The eVisitor password.
    pub evisitor_password: String,
    /// Use eVisitor's test platform (which also takes the application key).
    pub evisitor_test: bool,
    /// The application key of the test platform.
    pub evisitor_api_key: String,
    /// Fiscalise receipts with CIS.
    pub cis: bool,
    /// The company's fiscal certificate (.p12), as uploaded.
    pub certificate: Option<Vec<u8>>,
    /// Its password.
    pub certificate_password: String,
    /// The company's OIB.
    pub oib: String,
    /// The operator's OIB (blank: the company's).
    pub operator_oib: String,
    /// The business premises mark.
    pub premises: String,
    /// The device mark (blank: 1).
    pub device: String,
    /// The hotel is outside the VAT system.
    pub outside_vat: bool,
}

/// The settings the answers make (dotted key, value), or every rule they break. The
/// certificate's own setting is added where it is written.
pub fn sets_of(a: &ComplianceAnswers) -> Result<Vec<(String, String)>, Vec<FieldError>> {
    let mut errs = Vec::new();
    let mut sets = Vec::new();
    let required = |field: &str, v: &str, errs: &mut Vec<FieldError>| {
        if v.trim().is_empty() {
            errs.push(
                FieldError::new(field, "required", "is required").said("rule-required", vec![]),
            );
        }
    };
    if a.alloggiati {
        for (field, v) in [
            ("username", &a.username),
            ("password_alloggiati", &a.password),
            ("ws_key", &a.ws_key),
        ] {
            required(field, v, &mut errs);
        }
        sets.extend(
            [
                ("scheme", "it-alloggiati".to_string()),
                ("username", a.username.trim().to_string()),
                ("password", a.password.clone()),
                ("ws_key", a.ws_key.trim().to_string()),
                ("dry_run", a.test_only.to_string()),
            ]
            .map(|(k, v)| (format!("compliance.registration.{k}"), v)),
        );
    }
    if a.evisitor && a.alloggiati {
        let why = "Choose one guest registration: Alloggiati Web in Italy, eVisitor in Croatia.";
        // Said at the first field of eVisitor's settings, where the page shows it.
        errs.push(
            FieldError::new("facility", "conflict", why).said("problem-one-registration", vec![]),
        );
    }
    if a.evisitor {
        for (field, v) in [
            ("facility", &a.facility),
            ("evisitor_username", &a.evisitor_username),
            ("evisitor_password", &a.evisitor_password),
        ] {
            required(field, v, &mut errs);
        }
        if a.evisitor_test {
            required("evisitor_api_key", &a.evisitor_api_key, &mut errs);
        }
        if a.evisitor_test {
            let root = crate::config::EVISITOR_TEST_ENDPOINT.to_string();
            sets.push(("compliance.registration.endpoint".into(), root));
        }
        sets.extend(
            [
                ("scheme", "hr-evisitor".to_string()),
                ("facility", a.facility.trim().to_string()),
                ("username", a.evisitor_username.trim().to_string()),
                ("password", a.evisitor_password.clone()),
                ("api_key", a.evisitor_api_key.trim().to_string()),
                ("tax_category", "14".to_string()),
            ]
            .map(|(k, v)| (format!("compliance.registration.{k}"), v)),
        );
    }
    if a.cis {
        match a.certificate.as_ref().map_or(0, Vec::len) {
            0 => errs.push(
                FieldError::new("certificate", "required", "is required")
                    .said("rule-required", vec![]),
            ),
            n if n > MAX_CERTIFICATE => {
                let why = "is too large to be a certificate file (.p12, a few kilobytes)";
                errs.push(
                    FieldError::new("certificate", "too_large", why)
                        .said("problem-certificate-too-large", vec![]),
                );
            }
            _ => {}
        }
        required("certificate_password", &a.certificate_password, &mut errs);
        let oib = a.oib.trim();
        let operator = match a.operator_oib.trim() {
            "" => oib,
            o => o,
        };
        for (field, v) in [("oib", oib), ("operator_oib", operator)] {
            if !config::fiscal::oib_valid(v) {
                let why = "is not an OIB: 11 digits, the last of them the check digit";
                errs.push(
                    FieldError::new(field, "invalid", why).said("problem-not-an-oib", vec![]),
                );
            }
        }
        let premises = a.premises.trim();
        if !(1..=20).contains(&premises.len())
            || !premises.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            let why = "must be the registered premises mark: 1 to 20 letters or digits";
            errs.push(
                FieldError::new("premises", "invalid", why)
                    .said("problem-not-a-premises-mark", vec![]),
            );
        }
        let device = match a.device.trim() {
            "" => "1",
            d => d,
        };
        if !(1..=20).contains(&device.len()) || !device.bytes().all(|b| b.is_ascii_digit()) {
            let why = "must be the device mark: 1 to 20 digits";
            errs.push(
                FieldError::new("device", "invalid", why).said("problem-not-a-device-mark", vec![]),
            );
        }
        sets.extend(
            [
                ("scheme", "hr-cis".to_string()),
                ("certificate_password", a.certificate_password.clone()),
                ("oib", oib.to_string()),
                ("operator_oib", operator.to_string()),
                ("premises", premises.to_string()),
                ("device", device.to_string()),
                ("in_vat_system", (!a.outside_vat).to_string()),
            ]
            .map(|(k, v)| (format!("compliance.fiscal.{k}"), v)),
        );
    }
    if errs.is_empty() { Ok(sets) } else { Err(errs) }
}

/// Where the running server's configuration comes from, and the schemes it has in force:
/// what the first-run page needs to change them.
pub struct Reconfigure {
    /// The flags the server was started with (the data directory always set).
    pub flags: Flags,
    /// The schemes in force.
    pub switch: Arc<Switch>,
}

/// Settings written and loaded, not yet in force: [`Staged::commit`] puts them in force,
/// dropping it without that puts the files back.
pub struct Staged<'a> {
    edit: OwnEdit,
    compliance: Compliance,
    switch: &'a Switch,
    done: bool,
}

impl Staged<'_> {
    /// Puts the new schemes in force; the files stay.
    pub fn commit(mut self) {
        self.switch.set(self.compliance.clone());
        self.done = true;
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.edit.undo();
        }
    }
}

/// Writes `sets` (and the uploaded certificate) to the data directory's own file, then loads
/// the configuration as the server does at start and builds its schemes; a certificate that
/// cannot be opened is a 422 at `certificate_password`, and the files are put back. `None`
/// when there is nothing to write.
pub fn stage<'a>(
    to: &'a Reconfigure,
    mut sets: Vec<(String, String)>,
    certificate: Option<Vec<u8>>,
) -> AppResult<Option<Staged<'a>>> {
    if sets.is_empty() {
        return Ok(None);
    }
    let dir = to
        .flags
        .data_dir
        .as_deref()
        .ok_or_else(|| AppError::internal("the data directory is not known"))?;
    let mut edit = OwnEdit::open(dir).map_err(|e| AppError::internal(e.0))?;
    if let Some(bytes) =
        certificate.filter(|_| sets.iter().any(|(k, _)| k.starts_with("compliance.fiscal")))
    {
        let file = dir.join(CERTIFICATE_FILE);
        sets.push((
            "compliance.fiscal.certificate".into(),
            file.display().to_string(),
        ));
        edit.put_beside(file, bytes);
    }
    for (k, v) in &sets {
        edit.set(k, v).map_err(|e| AppError::internal(e.0))?;
    }
    edit.write().map_err(|e| AppError::internal(e.0))?;
    let built = load(&to.flags, dir).and_then(|c| in_force(c, &sets));
    match built {
        Ok(compliance) => Ok(Some(Staged {
            edit,
            compliance,
            switch: &to.switch,
            done: false,
        })),
        Err(e) => {
            edit.undo();
            Err(e)
        }
    }
}

/// The schemes loaded, when they are the ones asked for: a configuration file above the data
/// directory's own, or an `INNKEEP_` variable, that sets a scheme itself wins over this
/// page, and the page says so at the scheme's first field instead of claiming success.
fn in_force(c: Compliance, sets: &[(String, String)]) -> AppResult<Compliance> {
    let names = c.schemes();
    for (key, have, field) in [
        (
            "compliance.registration.scheme",
            &names.registration,
            "username",
        ),
        ("compliance.fiscal.scheme", &names.fiscal, "certificate"),
    ] {
        let asked = sets.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        if asked.is_some_and(|want| want != have) {
            let why = format!(
                "cannot be set here: the configuration file or an INNKEEP_ environment variable \
                 sets {key} to {have}, and it wins over this page; change it there"
            );
            return Err(AppError::invalid_field(field, "overridden", why)
                .field_said("problem-scheme-overridden", vec![]));
        }
    }
    Ok(c)
}

/// The schemes the configuration now names, as `innkeep serve` would build them.
fn load(flags: &Flags, dir: &Path) -> AppResult<Compliance> {
    let loaded = config::load(flags, std::env::vars()).map_err(|e| AppError::internal(e.0))?;
    debug_assert_eq!(loaded.data_dir, dir);
    Compliance::configured(&loaded.config.compliance).map_err(|why| {
        tracing::info!(%why, "the certificate given on the first-run page cannot be used");
        AppError::invalid_field(
            "certificate_password",
            "certificate_unusable",
            "cannot open the certificate with this password; check that the file is the \
             company's fiscal certificate (.p12) and that the password is its own",
        )
        .field_said("problem-certificate-unusable", vec![])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cis() -> ComplianceAnswers {
        ComplianceAnswers {
            cis: true,
            certificate: Some(b"p12".to_vec()),
            certificate_password: "secret".into(),
            oib: " 69435151530 ".into(),
            premises: "POSL1".into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_scheme_set_elsewhere_is_said_at_its_first_field() {
        let sets = vec![(
            "compliance.registration.scheme".to_string(),
            "it-alloggiati".to_string(),
        )];
        let e = in_force(Compliance::default(), &sets).err().unwrap();
        assert_eq!(e.errors[0].field, "username");
        assert!(e.errors[0].message.contains("wins over this page"));
        assert!(in_force(Compliance::default(), &[]).is_ok());
    }

    #[test]
    fn nothing_chosen_writes_nothing() {
        assert_eq!(sets_of(&ComplianceAnswers::default()), Ok(vec![]));
    }

    #[test]
    fn cis_answers_become_the_settings_with_their_defaults() {
        let sets = sets_of(&cis()).unwrap();
        let get = |k: &str| {
            sets.iter()
                .find(|(key, _)| key == &format!("compliance.fiscal.{k}"))
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("scheme"), Some("hr-cis"));
        assert_eq!(get("operator_oib"), Some("69435151530"), "the company's");
        assert_eq!(get("device"), Some("1"));
        assert_eq!(get("in_vat_system"), Some("true"));
    }

    #[test]
    fn every_broken_rule_is_named_at_its_field() {
        let a = ComplianceAnswers {
            alloggiati: true,
            username: "hotel1".into(),
            cis: true,
            certificate: None,
            oib: "69435151531".into(),
            operator_oib: "123".into(),
            premises: "POSL 1".into(),
            device: "A".into(),
            ..Default::default()
        };
        let fields: Vec<String> = sets_of(&a)
            .unwrap_err()
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(
            fields,
            [
                "password_alloggiati",
                "ws_key",
                "certificate",
                "certificate_password",
                "oib",
                "operator_oib",
                "premises",
                "device"
            ]
        );
    }
}
