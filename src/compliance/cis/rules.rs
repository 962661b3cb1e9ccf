//! The 2026 rules of CIS receipts as pure functions: which invoices CIS covers (every
//! payment method from 1 January 2026) and what a change of payment method asks of it.

use super::NAME;
use super::receipt::{self, Receipt};
use crate::compliance::{ChangeInput, PaymentChange};
use crate::domain::enums::{FiscalStatus, PaymentMethod};
use crate::error::{AppError, AppResult};
use crate::model::Fiscal;

/// From this local day every receipt to a private person is fiscalized whatever the payment
/// method, bank transfers (`NacinPlac` T) included: the Fiscalization Act, NN 89/25, in force
/// from 1 January 2026 (as the tax administration's B2C pages and every implementer read it;
/// the law's own article was not reached, see `docs/research/hr-cis-2026.md`). Before it,
/// transfers were outside CIS. Every bill-to is a person today; invoices to Croatian
/// businesses go to eRačun once bill-tos can be businesses.
pub const TRANSFERS_FISCALIZED_FROM: chrono::NaiveDate =
    match chrono::NaiveDate::from_ymd_opt(2026, 1, 1) {
        Some(d) => d,
        None => panic!("a real day"),
    };
/// Whether CIS covers an invoice issued on local day `day`, paid by `method`: every payment
/// method from [`TRANSFERS_FISCALIZED_FROM`] (before it, bank transfers were outside CIS); a
/// credit note (`reverses` its invoice's fiscal record) follows the invoice it reverses.
pub fn covered(
    reverses: Option<&Fiscal>,
    day: chrono::NaiveDate,
    method: Option<PaymentMethod>,
) -> bool {
    match reverses {
        Some(o) => o.scheme == NAME && o.status != FiscalStatus::NotRequired,
        None => day >= TRANSFERS_FISCALIZED_FROM || method != Some(PaymentMethod::BankTransfer),
    }
}

/// A change of payment method on a sealed receipt (section 2.1.5 of the specification):
/// only on the day of issue, until midnight (after it, a credit note and a new receipt),
/// reported with `PromijeniNacPlac`, which carries the receipt as first sent (the sealed
/// receipt never changes) and the new method, due by midnight. The queue sends it once CIS
/// has the receipt.
pub fn change_payment(input: ChangeInput<'_>) -> AppResult<PaymentChange> {
    let r: Receipt = serde_json::from_str(input.receipt).map_err(AppError::internal)?;
    let method = receipt::payment_code(Some(input.method)).to_string();
    let issued = r.issued_at.date();
    if issued != input.local_now.date() {
        let number = input.number.to_string();
        return Err(crate::refusal::FiscalRefusal::ChangeTooLate { number, issued }.into());
    }
    let midnight = issued
        .succ_opt()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .ok_or_else(|| AppError::internal("no day after the receipt's"))?;
    let due_at = input.now + (midnight - input.local_now);
    let change = receipt::PaymentChange { receipt: r, method };
    let payload = serde_json::to_string(&change).map_err(AppError::internal)?;
    Ok(PaymentChange::Report { payload, due_at })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bank_transfers_are_fiscalized_from_2026_and_credit_notes_follow_their_invoice() {
        let day = |s: &str| s.parse::<chrono::NaiveDate>().unwrap();
        let transfer = Some(PaymentMethod::BankTransfer);
        assert!(!covered(None, day("2025-12-31"), transfer));
        assert!(covered(None, day("2026-01-01"), transfer));
        assert!(covered(None, day("2025-12-31"), Some(PaymentMethod::Card)));
        let outside = Fiscal::new(NAME, FiscalStatus::NotRequired);
        assert!(!covered(Some(&outside), day("2026-02-01"), transfer));
        let sealed = Fiscal::new(NAME, FiscalStatus::Fiscalized);
        assert!(covered(
            Some(&sealed),
            day("2026-02-01"),
            Some(PaymentMethod::Cash)
        ));
    }

    #[test]
    fn a_change_is_reported_until_midnight_and_refused_the_next_day() {
        let at = |s: &str| chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap();
        let r = Receipt {
            invoice_id: "inv_1".into(),
            oib: "98765432106".into(),
            in_vat_system: true,
            issued_at: at("2026-11-22 10:30"),
            number: 7,
            premises: "POSL1".into(),
            device: "1".into(),
            vat: Vec::new(),
            total: 4498,
            payment: "T".into(),
            operator_oib: "69435151530".into(),
            zki: "a".repeat(32),
            buyer_oib: None,
        };
        let stored = serde_json::to_string(&r).unwrap();
        let input = |local: &str| ChangeInput {
            receipt: &stored,
            number: "2026-7",
            method: PaymentMethod::Card,
            local_now: at(local),
            now: "2026-11-22T21:30:00Z".parse().unwrap(),
        };
        let PaymentChange::Report { payload, due_at } =
            change_payment(input("2026-11-22 22:30")).unwrap()
        else {
            panic!("a change is reported")
        };
        let midnight: chrono::DateTime<chrono::Utc> = "2026-11-22T23:00:00Z".parse().unwrap();
        assert_eq!(due_at, midnight);
        let change: receipt::PaymentChange = serde_json::from_str(&payload).unwrap();
        assert_eq!(
            (change.receipt.payment.as_str(), change.method.as_str()),
            ("T", "K")
        );
        let late = change_payment(input("2026-11-23 00:01")).unwrap_err();
        assert_eq!(late.code, "payment_method_change_too_late");
    }
}
