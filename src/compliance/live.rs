//! Compliance schemes that can change while innkeep runs: the first-run page configures
//! Alloggiati Web or CIS on a server that started with none. A [`Switch`] holds the schemes
//! in force; the [`Compliance`] it hands out (to the services and the queue's handlers) asks
//! the switch at every call, so a change reaches everyone at once, and a call already under
//! way finishes with the schemes it started with.

use std::sync::{Arc, RwLock};

use chrono::{DateTime, NaiveDate, Utc};

use super::{
    ChangeInput, Compliance, Exchange, FiscalScheme, GuestRole, Outcome, Party, PaymentChange,
    Prepared, Problem, ReceiptSeries, RegistrationScheme, SealInput, Sealed,
};
use crate::error::AppResult;
use crate::model::codes::CodeLookup;

/// The schemes in force, replaceable.
pub struct Switch(RwLock<Compliance>);

impl Switch {
    /// A switch holding `compliance`.
    pub fn new(compliance: Compliance) -> Arc<Switch> {
        Arc::new(Switch(RwLock::new(compliance)))
    }

    /// The schemes in force now.
    pub fn now(&self) -> Compliance {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Puts `compliance` in force for every later call.
    pub fn set(&self, compliance: Compliance) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = compliance;
    }

    /// Schemes that follow this switch.
    pub fn compliance(self: &Arc<Self>) -> Compliance {
        Compliance {
            fiscal: Arc::new(LiveFiscal(self.clone())),
            registration: Arc::new(LiveRegistration(self.clone())),
            // Configured in the file only, never switched while running.
            einvoice: self.now().einvoice,
        }
    }
}

/// The fiscal scheme in force at each call.
struct LiveFiscal(Arc<Switch>);

impl LiveFiscal {
    fn scheme(&self) -> Arc<dyn FiscalScheme> {
        self.0.now().fiscal
    }
}

impl FiscalScheme for LiveFiscal {
    fn name(&self) -> &'static str {
        self.scheme().name()
    }

    fn seal(
        &self,
        input: SealInput<'_>,
        numbers: &mut dyn FnMut(&ReceiptSeries) -> AppResult<i64>,
    ) -> AppResult<Sealed> {
        self.scheme().seal(input, numbers)
    }

    fn deliver(&self, payload: &str, late: bool) -> (Vec<Exchange>, Outcome) {
        self.scheme().deliver(payload, late)
    }

    fn awaits(&self, payload: &str) -> Option<String> {
        self.scheme().awaits(payload)
    }

    fn complete(&self, payload: &str, reference: &str) -> Option<String> {
        self.scheme().complete(payload, reference)
    }

    fn check_connection(&self) -> Result<String, String> {
        self.scheme().check_connection()
    }

    fn close_day(&self) -> Result<String, String> {
        self.scheme().close_day()
    }

    fn qr_payload(&self, payload: &str, reference: &str) -> Option<String> {
        self.scheme().qr_payload(payload, reference)
    }

    fn certificate(&self) -> Option<(String, DateTime<Utc>)> {
        self.scheme().certificate()
    }

    fn change_payment(&self, input: ChangeInput<'_>) -> AppResult<PaymentChange> {
        self.scheme().change_payment(input)
    }

    fn deliver_change(&self, payload: &str, late: bool) -> (Vec<Exchange>, Outcome) {
        self.scheme().deliver_change(payload, late)
    }
}

/// The registration scheme in force at each call.
struct LiveRegistration(Arc<Switch>);

impl LiveRegistration {
    fn scheme(&self) -> Arc<dyn RegistrationScheme> {
        self.0.now().registration
    }
}

impl RegistrationScheme for LiveRegistration {
    fn name(&self) -> &'static str {
        self.scheme().name()
    }

    fn enabled(&self) -> bool {
        self.scheme().enabled()
    }

    fn prepare(
        &self,
        codes: &dyn CodeLookup,
        party: &Party,
    ) -> AppResult<Result<Prepared, Vec<Problem>>> {
        self.scheme().prepare(codes, party)
    }

    fn due_at(&self, party: &Party, checked_in_at: DateTime<Utc>) -> DateTime<Utc> {
        self.scheme().due_at(party, checked_in_at)
    }

    fn sendable(&self, record_date: NaiveDate, today: NaiveDate) -> Result<(), String> {
        self.scheme().sendable(record_date, today)
    }

    fn authenticate(&self, fresh: bool) -> Result<Vec<Exchange>, (Vec<Exchange>, Outcome)> {
        self.scheme().authenticate(fresh)
    }

    fn submit(&self, lines: &[String]) -> (Vec<Exchange>, Outcome) {
        self.scheme().submit(lines)
    }

    fn export(&self, lines: &[String]) -> String {
        self.scheme().export(lines)
    }

    fn roles(&self, guests: &[crate::model::Guest]) -> Vec<GuestRole> {
        self.scheme().roles(guests)
    }

    fn departure(
        &self,
        registered: &[super::PreparedRow],
        at: chrono::NaiveDateTime,
    ) -> Vec<super::PreparedRow> {
        self.scheme().departure(registered, at)
    }

    fn withdrawal(
        &self,
        registered: &[super::PreparedRow],
        reason: &str,
    ) -> Vec<super::PreparedRow> {
        self.scheme().withdrawal(registered, reason)
    }

    fn resends_changes(&self) -> bool {
        self.scheme().resends_changes()
    }

    fn unknown_advice(&self) -> &'static str {
        self.scheme().unknown_advice()
    }

    fn withdraws(&self) -> bool {
        self.scheme().withdraws()
    }

    fn fetches_tables(&self) -> bool {
        self.scheme().fetches_tables()
    }

    fn table_names(&self) -> &'static [&'static str] {
        self.scheme().table_names()
    }

    fn fetch_tables(&self) -> super::FetchedTables {
        self.scheme().fetch_tables()
    }

    fn gives_receipts(&self) -> bool {
        self.scheme().gives_receipts()
    }

    fn fetch_receipt(&self, day: chrono::NaiveDate) -> super::FetchedReceipt {
        self.scheme().fetch_receipt(day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compliance::NoRegistration;

    /// A registration scheme that only has a name.
    struct Named;

    impl RegistrationScheme for Named {
        fn name(&self) -> &'static str {
            "it-alloggiati"
        }
        fn enabled(&self) -> bool {
            true
        }
        fn prepare(
            &self,
            codes: &dyn CodeLookup,
            party: &Party,
        ) -> AppResult<Result<Prepared, Vec<Problem>>> {
            NoRegistration.prepare(codes, party)
        }
        fn due_at(&self, _: &Party, at: DateTime<Utc>) -> DateTime<Utc> {
            at
        }
        fn sendable(&self, _: NaiveDate, _: NaiveDate) -> Result<(), String> {
            Ok(())
        }
        fn authenticate(&self, f: bool) -> Result<Vec<Exchange>, (Vec<Exchange>, Outcome)> {
            NoRegistration.authenticate(f)
        }
        fn submit(&self, lines: &[String]) -> (Vec<Exchange>, Outcome) {
            NoRegistration.submit(lines)
        }
        fn export(&self, lines: &[String]) -> String {
            lines.concat()
        }
    }

    #[test]
    fn a_change_reaches_schemes_handed_out_before_it() {
        let switch = Switch::new(Compliance::default());
        let handed = switch.compliance();
        assert_eq!(handed.schemes().registration, "none");
        assert!(!handed.registration.enabled());
        switch.set(Compliance {
            registration: Arc::new(Named),
            ..Compliance::default()
        });
        assert_eq!(handed.schemes().registration, "it-alloggiati");
        assert!(handed.registration.enabled());
        assert_eq!(handed.registration.export(&["a".into(), "b".into()]), "ab");
        assert_eq!(handed.schemes().fiscal, "none");
    }
}
