//! The seller step of `innkeep setup`: the particulars every invoice prints (registered name,
//! address, VAT number), by the same rules as the first-run page and `PUT /v1/settings`.
//! Optional: on a terminal an empty name leaves them for Administration › Settings; for
//! scripts they are flags, all or none.

use serde_json::Value;

use super::setup_ask::Ask;
use crate::service::setup_plan::SellerAnswers;

/// The seller's flags.
#[derive(Debug, Default, clap::Args)]
pub struct SellerArgs {
    /// The seller's registered name, printed on invoices (needed in Croatia and Italy).
    #[arg(long, value_name = "NAME")]
    pub seller_name: Option<String>,
    /// The seller's street and number.
    #[arg(long, value_name = "STREET")]
    pub seller_street: Option<String>,
    /// The seller's postal code.
    #[arg(long, value_name = "CODE")]
    pub seller_postal_code: Option<String>,
    /// The seller's town or city.
    #[arg(long, value_name = "CITY")]
    pub seller_city: Option<String>,
    /// The seller's VAT number: the OIB in Croatia, the partita IVA in Italy.
    #[arg(long, value_name = "NUMBER")]
    pub seller_vat_id: Option<String>,
}

/// The seller as the settings take it, and its line in the summary.
pub type Seller = (Value, (String, String));

/// The seller, or `None` (not given now); a broken rule is an error naming the flag.
pub fn ask(ask: &mut Ask, args: &SellerArgs, country: &str) -> Result<Option<Seller>, String> {
    let given = |v: &Option<String>| v.clone().unwrap_or_default();
    let mut answers = SellerAnswers {
        legal_name: given(&args.seller_name),
        street: given(&args.seller_street),
        postal_code: given(&args.seller_postal_code),
        city: given(&args.seller_city),
        vat_id: given(&args.seller_vat_id),
    };
    if ask.interactive() && args.seller_name.is_none() {
        println!("\nThe seller on invoices: the registered name, address and VAT number.");
        answers.legal_name =
            ask.prompt("  Registered name (empty: later)", Some(""), |_| Ok(()))?;
        if answers.legal_name.trim().is_empty() {
            return Ok(None);
        }
        let need = |s: &str| {
            if s.is_empty() {
                Err("is needed".to_string())
            } else {
                Ok(())
            }
        };
        answers.street = ask.prompt("  Street and number", None, need)?;
        answers.postal_code = ask.prompt("  Postal code", Some(""), |_| Ok(()))?;
        answers.city = ask.prompt("  Town or city", None, need)?;
        let vat_rule = |s: &str| {
            need(s)?;
            let broken = crate::domain::seller::check(Some(country), s, true, true);
            broken
                .first()
                .map_or(Ok(()), |(_, r)| Err(r.message.clone()))
        };
        answers.vat_id = ask.prompt("  VAT number (OIB, partita IVA)", None, vat_rule)?;
    }
    let mut errs = Vec::new();
    let Some(seller) = answers.input(country, &mut errs) else {
        return Ok(None);
    };
    if let Some(e) = errs.first() {
        let flag = e.field.replace("seller.address.line1", "seller-street");
        let flag = flag
            .replace("seller.address.", "seller-")
            .replace("seller.", "seller-");
        return Err(format!("--{} {}", flag.replace('_', "-"), e.message));
    }
    let shown = format!("{}, {}", answers.legal_name.trim(), answers.vat_id.trim());
    Ok(Some((seller, ("Seller".into(), shown))))
}
