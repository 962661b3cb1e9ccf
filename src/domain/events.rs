//! The event catalogue (API.md section 8): every type the feed records, and the one reading
//! of a type pattern (`reservation.created`, `reservation.*`, `*`) that the feed's filter,
//! webhook subscriptions, delivery matching and the spec's pattern all share.

string_enum! {
    /// What an event reports.
    pub enum EventType {
        /// A guest was created.
        GuestCreated = "guest.created",
        /// A guest was changed.
        GuestUpdated = "guest.updated",
        /// A reservation was made.
        ReservationCreated = "reservation.created",
        /// A reservation was changed.
        ReservationUpdated = "reservation.updated",
        /// A reservation was cancelled.
        ReservationCancelled = "reservation.cancelled",
        /// A reservation was marked a no-show.
        ReservationNoShow = "reservation.no_show",
        /// The guests checked in.
        ReservationCheckedIn = "reservation.checked_in",
        /// The guests checked out.
        ReservationCheckedOut = "reservation.checked_out",
        /// A booking site's booking was taken with no room of its type free on some night
        /// (`data`: the reservation and the full nights): someone must make room.
        ReservationOverbooked = "reservation.overbooked",
        /// An invoice or credit note was issued.
        InvoiceCreated = "invoice.created",
        /// An invoice was paid in full.
        InvoicePaid = "invoice.paid",
        /// The tax authority confirmed the fiscal receipt.
        InvoiceFiscalized = "invoice.fiscalized",
        /// Fiscalisation failed and needs a person.
        InvoiceFiscalizationFailed = "invoice.fiscalization_failed",
        /// An issued invoice's payment method was changed (reported to the fiscal system
        /// where the law needs it).
        InvoicePaymentMethodChanged = "invoice.payment_method_changed",
        /// An invoice's e-invoice moved on at the intermediary: sent, or delivered to the
        /// buyer (its fiscalization is `invoice.fiscalized`, a rejection
        /// `invoice.fiscalization_failed`).
        InvoiceEInvoiceUpdated = "invoice.einvoice_updated",
        /// The authority accepted a guest registration.
        RegistrationAccepted = "registration.accepted",
        /// The authority rejected a guest registration.
        RegistrationRejected = "registration.rejected",
        /// A webhook endpoint was sent a test.
        WebhookTest = "webhook.test",
        /// A rate plan was created.
        RatePlanCreated = "rate_plan.created",
        /// A rate plan was changed.
        RatePlanUpdated = "rate_plan.updated",
        /// Prices or restrictions of a plan's calendar changed (`data`: the plan, the range,
        /// the weekdays and the fields set).
        RatesChanged = "rates.changed",
        /// The mail relay took a message to a guest (`data`: the message, without its body).
        MessageSent = "message.sent",
        /// A message to a guest could not be sent: refused for good, or given up after its
        /// retries (`data`: the message and why).
        MessageFailed = "message.failed",
        /// A business day was closed (`data`: the day close, its figures, checks and hash).
        DayClosed = "day.closed",
    }
}

impl EventType {
    /// The family, such as `reservation`.
    pub fn family(self) -> &'static str {
        let name = self.as_str();
        name.split_once('.').map_or(name, |(family, _)| family)
    }

    /// Every family, in declaration order, once.
    pub fn families() -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for t in Self::ALL {
            if !out.contains(&t.family()) {
                out.push(t.family());
            }
        }
        out
    }
}

/// Whether `pattern` names something: a type, a known `family.*`, or `*`.
pub fn is_known_pattern(pattern: &str) -> bool {
    pattern == "*"
        || EventType::parse(pattern).is_some()
        || pattern
            .strip_suffix(".*")
            .is_some_and(|f| EventType::families().contains(&f))
}

/// Whether `event_type` matches any of `patterns`: exact, `family.*` or `*`.
pub fn matches(patterns: &[String], event_type: &str) -> bool {
    patterns.iter().any(|p| {
        p == "*"
            || p == event_type
            || p.strip_suffix(".*")
                .is_some_and(|family| event_type.split('.').next() == Some(family))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn patterns_name_types_families_and_everything() {
        assert!(is_known_pattern("reservation.created"));
        assert!(is_known_pattern("reservation.*"));
        assert!(is_known_pattern("*"));
        assert!(!is_known_pattern("reservations.*"));
        assert!(!is_known_pattern("reservation.eaten"));
        assert_eq!(
            EventType::families(),
            [
                "guest",
                "reservation",
                "invoice",
                "registration",
                "webhook",
                "rate_plan",
                "rates",
                "message",
                "day"
            ]
        );
    }

    #[test]
    fn filters_take_exact_names_families_and_everything() {
        assert!(matches(&p(&["reservation.*"]), "reservation.created"));
        assert!(!matches(&p(&["reservation.*"]), "invoice.created"));
        assert!(matches(
            &p(&["invoice.paid", "guest.created"]),
            "guest.created"
        ));
        assert!(matches(&p(&["*"]), "webhook.test"));
        assert!(!matches(&p(&["reservations.*"]), "reservation.created"));
    }
}
