//! The seller and the buyer as FatturaPA names them, from the invoice's particulars; a
//! refusal names the field to fill or fix.

use super::doc::{Name, Party};
use crate::domain::enums::BuyerKind;
use crate::domain::italy::{codice_fiscale_problem, normalize, partita_iva};
use crate::error::{AppError, AppResult};
use crate::model::{Address, BillTo, Invoice};

fn need(field: &str, rule: &str) -> AppError {
    AppError::invalid_field(field, "required_for_fatturapa", rule.to_string())
}

/// A two-letter province code from a region field, when it is one (`FI`, `mi`).
fn province(a: &Address) -> Option<String> {
    let r = a.region.as_ref()?.0.trim().to_ascii_uppercase();
    (r.len() == 2 && r.bytes().all(|b| b.is_ascii_uppercase())).then_some(r)
}

/// Street, CAP and town of an address in Italy; `at` is the field's path.
fn italian_site(
    a: Option<&Address>,
    at: &str,
) -> AppResult<(String, String, String, Option<String>)> {
    let text = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
    let street = text(a.and_then(|a| a.line1.as_ref().map(|l| l.0.clone()))).ok_or_else(|| {
        need(
            &format!("{at}.line1"),
            "the street and number are required on an Italian invoice",
        )
    })?;
    let city = text(a.and_then(|a| a.city.as_ref().map(|l| l.0.clone()))).ok_or_else(|| {
        need(
            &format!("{at}.city"),
            "the town is required on an Italian invoice",
        )
    })?;
    let cap = a
        .and_then(|a| a.postal_code.as_ref())
        .map(|p| p.0.trim().to_string())
        .filter(|p| p.len() == 5 && p.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            AppError::invalid_field(
                &format!("{at}.postal_code"),
                "invalid_cap",
                "an Italian invoice needs the 5-digit postal code (CAP)",
            )
        })?;
    Ok((street, cap, city, a.and_then(province)))
}

/// The seller and its partita IVA, from the invoice's seller particulars.
pub fn seller(inv: &Invoice) -> AppResult<(Party, String)> {
    let Some(s) = &inv.seller else {
        return Err(crate::refusal::FiscalRefusal::SellerMissing {
            country: "IT".into(),
        }
        .into());
    };
    let piva = partita_iva(&s.vat_id.0).ok_or_else(|| {
        AppError::invalid_field(
            "seller.vat_id",
            "invalid_partita_iva",
            "the seller's VAT number in the property settings must be its partita IVA (11 digits whose last is the check digit, IT in front allowed) for a FatturaPA",
        )
    })?;
    let (street, cap, city, province) = italian_site(Some(&s.address), "seller.address")?;
    let tax_code = s
        .tax_code
        .as_ref()
        .map(|t| normalize(&t.0))
        .filter(|t| t != &piva && (t.len() == 11 || t.len() == 16));
    let party = Party {
        name: Name::Company(s.legal_name.0.clone()),
        vat: Some(("IT".into(), piva.clone())),
        tax_code,
        street,
        cap,
        city,
        province,
        country: "IT".into(),
    };
    Ok((party, piva))
}

/// A person's name split for `Nome` and `Cognome`: the first word, then the rest.
fn person(name: &str) -> Name {
    match name.trim().split_once(char::is_whitespace) {
        Some((given, family)) if !family.trim().is_empty() => {
            Name::Person(given.to_string(), family.trim().to_string())
        }
        _ => Name::Company(name.trim().to_string()),
    }
}

/// The buyer, its recipient code and its PEC, from the invoice's bill-to.
pub fn buyer(b: &BillTo) -> AppResult<(Party, String, Option<String>)> {
    let country = b
        .address
        .as_ref()
        .and_then(|a| a.country.as_ref())
        .map_or("IT".to_string(), |c| c.0.clone());
    let business = match b.kind {
        Some(k) => k == BuyerKind::Business,
        None => b.vat_id.is_some(),
    };
    let name = if business {
        Name::Company(b.name.0.trim().to_string())
    } else {
        person(&b.name.0)
    };
    if country != "IT" {
        let street = b
            .address
            .as_ref()
            .and_then(|a| a.line1.as_ref())
            .map(|l| l.0.clone())
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| {
                need(
                    "bill_to.address.line1",
                    "the buyer's street and number are required on an Italian invoice",
                )
            })?;
        let city = b
            .address
            .as_ref()
            .and_then(|a| a.city.as_ref())
            .map(|l| l.0.clone())
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| {
                need(
                    "bill_to.address.city",
                    "the buyer's town is required on an Italian invoice",
                )
            })?;
        let code = b
            .vat_id
            .as_ref()
            .map(|v| {
                let v: String = v.0.chars().filter(char::is_ascii_alphanumeric).collect();
                v.strip_prefix(country.as_str())
                    .map(str::to_string)
                    .unwrap_or(v)
            })
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "99999999999".into());
        let party = Party {
            name,
            vat: Some((country.clone(), code)),
            tax_code: None,
            street,
            cap: "00000".into(),
            city,
            province: None,
            country,
        };
        return Ok((party, "XXXXXXX".into(), None));
    }
    let vat = match &b.vat_id {
        Some(v) => Some(partita_iva(&v.0).ok_or_else(|| {
            AppError::invalid_field(
                "bill_to.vat_id",
                "invalid_partita_iva",
                "an Italian buyer's VAT number must be its partita IVA: 11 digits whose last is the check digit (IT in front allowed)",
            )
        })?),
        None => None,
    };
    let tax_code = match &b.tax_code {
        Some(t) => {
            let t = normalize(&t.0);
            let ok = if t.len() == 11 {
                partita_iva(&t).is_some()
            } else {
                codice_fiscale_problem(&t).is_none()
            };
            if !ok {
                return Err(AppError::invalid_field(
                    "bill_to.tax_code",
                    "invalid_codice_fiscale",
                    "the buyer's codice fiscale must be 16 letters and digits with a correct check character, or a company's 11 digits",
                ));
            }
            Some(t)
        }
        None => None,
    };
    if vat.is_none() && tax_code.is_none() {
        return Err(need(
            "bill_to.tax_code",
            "an invoice to an Italian buyer needs their codice fiscale (or a company's partita IVA in vat_id); without one, settle the stay with a receipt",
        ));
    }
    let (street, cap, city, province) = italian_site(b.address.as_ref(), "bill_to.address")?;
    let party = Party {
        name,
        vat: vat.map(|v| ("IT".to_string(), v)),
        tax_code,
        street,
        cap,
        city,
        province,
        country: "IT".into(),
    };
    let code = b.sdi_code.as_ref().map(|c| c.0.clone());
    let pec = match &code {
        Some(c) if c != "0000000" => None,
        _ => b.pec.as_ref().map(|p| p.0.clone()),
    };
    Ok((party, code.unwrap_or_else(|| "0000000".into()), pec))
}
