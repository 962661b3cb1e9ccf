//! The compliance step of `innkeep setup`: which national schemes, and their settings,
//! written to the data directory's own `innkeep.toml` (owner-only: it holds passwords) and
//! checked by loading the configuration exactly as the server will.

use std::path::PathBuf;

use super::setup::SetupArgs;
use super::setup_ask::Ask;
use crate::config::own::OwnEdit;
use crate::config::{self, Flags, Loaded};

/// The settings setup will write, not yet written.
pub struct Pending(OwnEdit);

impl Pending {
    /// Writes the file and loads the configuration as the server would; on any problem
    /// the file is put back as it was and the problem returned.
    pub fn write(&self, flags: &Flags) -> Result<Option<PathBuf>, String> {
        if !self.0.changed() {
            return Ok(None);
        }
        self.0.write().map_err(|e| e.to_string())?;
        let checked = config::load(flags, std::env::vars())
            .map_err(|e| e.to_string())
            .and_then(|l| {
                let f = &l.config.compliance.fiscal;
                if f.scheme != config::FiscalSchemeName::HrCis {
                    return Ok(());
                }
                crate::compliance::fiscal_credentials(f).map(drop)
            });
        if let Err(e) = checked {
            self.undo();
            return Err(format!("{e}; nothing was changed"));
        }
        Ok(Some(self.0.file().to_path_buf()))
    }

    /// Puts the file back as it was before [`Pending::write`].
    pub fn undo(&self) {
        self.0.undo();
    }
}

/// Asks which schemes to use (offering the country's own), or takes `--registration`,
/// `--fiscal` and `--set`.
pub fn ask(ask: &mut Ask, l: &Loaded, args: &SetupArgs, country: &str) -> Result<Pending, String> {
    let mut edit = OwnEdit::open(&l.data_dir).map_err(|e| e.to_string())?;
    let mut sets: Vec<(String, String)> = Vec::new();
    let registration = if country == "HR" {
        offer(
            ask,
            &args.registration,
            true,
            "Check guests in and out with the tourist board (eVisitor)?",
            ("Yes, with eVisitor", "hr-evisitor"),
        )?
    } else {
        offer(
            ask,
            &args.registration,
            country == "IT",
            "Register guests with the police (Alloggiati Web)?",
            ("Yes, with Alloggiati Web", "it-alloggiati"),
        )?
    };
    let fiscal = offer(
        ask,
        &args.fiscal,
        country == "HR",
        "Fiscalise receipts with the Tax Administration (CIS)?",
        ("Yes, with CIS", "hr-cis"),
    )?;
    if registration != "none" || args.registration.is_some() {
        sets.push((
            "compliance.registration.scheme".into(),
            registration.clone(),
        ));
    }
    if fiscal != "none" || args.fiscal.is_some() {
        sets.push(("compliance.fiscal.scheme".into(), fiscal.clone()));
    }
    if ask.interactive() && args.set.is_empty() {
        if registration == "it-alloggiati" {
            alloggiati(ask, &mut sets)?;
        }
        if registration == "hr-evisitor" {
            evisitor(ask, &mut sets)?;
        }
        if fiscal == "hr-cis" {
            cis(ask, &mut sets)?;
        }
    }
    for kv in &args.set {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(format!("--set {kv:?}: write it as KEY=VALUE"));
        };
        sets.push((k.trim().to_string(), v.to_string()));
    }
    for (k, v) in &sets {
        edit.set(k, v).map_err(|e| e.to_string())?;
    }
    Ok(Pending(edit))
}

/// A scheme: its flag's value, else (on a terminal, in the scheme's country) "Not now" or
/// `yes`, else `none`.
fn offer(
    ask: &mut Ask,
    given: &Option<String>,
    its_country: bool,
    question: &str,
    yes: (&str, &str),
) -> Result<String, String> {
    if let Some(s) = given {
        return Ok(s.clone());
    }
    if ask.interactive() && its_country && ask.select(question, &["Not now", yes.0], 0)? == 1 {
        return Ok(yes.1.to_string());
    }
    Ok("none".into())
}

fn need(s: &str) -> Result<(), String> {
    if s.is_empty() {
        Err("is needed".into())
    } else {
        Ok(())
    }
}

fn alloggiati(ask: &mut Ask, sets: &mut Vec<(String, String)>) -> Result<(), String> {
    println!("\nAlloggiati Web: the credentials of the Questura's web service.");
    let user = ask.prompt("  User name", None, need)?;
    let password = ask.secret("  Password", need)?.unwrap_or_default();
    let key = ask
        .secret("  Web-service key (WSKEY)", need)?
        .unwrap_or_default();
    let test = ask.again("  Only test the registrations for now (Test instead of Send)?")?;
    for (k, v) in [
        ("username", user),
        ("password", password),
        ("ws_key", key),
        ("dry_run", test.to_string()),
    ] {
        sets.push((format!("compliance.registration.{k}"), v));
    }
    Ok(())
}

fn evisitor(ask: &mut Ask, sets: &mut Vec<(String, String)>) -> Result<(), String> {
    println!("\neVisitor: the facility code and the user the tourist board gave the hotel.");
    let facility = ask.prompt("  Facility code", None, need)?;
    let user = ask.prompt("  User name", None, need)?;
    let password = ask.secret("  Password", need)?.unwrap_or_default();
    let category = ask.prompt(
        "  Tourist-tax category of a guest who has none (14: a tourist in a hotel)",
        Some("14"),
        need,
    )?;
    for (k, v) in [
        ("facility", facility),
        ("username", user),
        ("password", password),
        ("tax_category", category),
    ] {
        sets.push((format!("compliance.registration.{k}"), v));
    }
    Ok(())
}

fn cis(ask: &mut Ask, sets: &mut Vec<(String, String)>) -> Result<(), String> {
    println!("\nCIS: the company's fiscal certificate and marks.");
    let exists = |s: &str| {
        if std::path::Path::new(s).is_file() {
            Ok(())
        } else {
            Err(format!("there is no file {s}"))
        }
    };
    let cert = ask.prompt("  The certificate file (.p12)", None, exists)?;
    let cert = std::fs::canonicalize(&cert).map_or(cert, |p| p.display().to_string());
    let password = ask
        .secret("  The certificate's password", need)?
        .unwrap_or_default();
    let oib_rule = |s: &str| {
        if s.len() == 11 && s.bytes().all(|b| b.is_ascii_digit()) {
            Ok(())
        } else {
            Err("an OIB is 11 digits".to_string())
        }
    };
    let oib = ask.prompt("  The company's OIB", None, oib_rule)?;
    let operator = ask.prompt("  The operator's OIB", Some(&oib), oib_rule)?;
    let premises = ask.prompt("  Business premises mark", None, need)?;
    let device = ask.prompt("  Device (cash register) mark", Some("1"), need)?;
    let vat = !ask.again("  Is the hotel outside the VAT system?")?;
    for (k, v) in [
        ("certificate", cert),
        ("certificate_password", password),
        ("oib", oib),
        ("operator_oib", operator),
        ("premises", premises),
        ("device", device),
        ("in_vat_system", vat.to_string()),
    ] {
        sets.push((format!("compliance.fiscal.{k}"), v));
    }
    Ok(())
}
