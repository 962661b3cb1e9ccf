//! OAuth scopes and the staff roles that map to scope sets (API.md section 10).

string_enum! {
    /// A permission a token can carry.
    pub enum Scope {
        /// Read guests.
        GuestsRead = "guests:read",
        /// Create and change guests.
        GuestsWrite = "guests:write",
        /// Read reservations, room types, rooms and availability.
        ReservationsRead = "reservations:read",
        /// Create, change and cancel reservations.
        ReservationsWrite = "reservations:write",
        /// Check-in, check-out and folio charges.
        FrontDesk = "front_desk",
        /// Change rooms' housekeeping state and details.
        Housekeeping = "housekeeping",
        /// Read invoices.
        InvoicesRead = "invoices:read",
        /// Issue invoices, credit notes and payments.
        InvoicesWrite = "invoices:write",
        /// Read the event feed.
        EventsRead = "events:read",
        /// Manage webhook endpoints.
        WebhooksManage = "webhooks:manage",
        /// See and retry national compliance submissions.
        Compliance = "compliance",
        /// Property settings, room types and rooms set-up, metrics.
        Admin = "admin",
        /// Read rate plans, the price calendar and offers.
        RatesRead = "rates:read",
        /// Create and change rate plans and the price calendar.
        RatesWrite = "rates:write",
        /// See the channel manager connection's health and send everything to it again.
        ChannelManage = "channel:manage",
        /// Read the owner's reports: occupancy, revenue, payments, bookings.
        ReportsRead = "reports:read",
        /// Close the business day: no-shows, the cash count, the day certificate.
        NightAudit = "night_audit",
    }
}

string_enum! {
    /// An OAuth grant a client may be registered for (the device grant's wire name is
    /// `urn:ietf:params:oauth:grant-type:device_code`; clients are registered as `device`).
    pub enum Grant {
        /// Machine to machine, with the client's own secret.
        ClientCredentials = "client_credentials",
        /// A staff member signs in in the browser (with PKCE).
        AuthorizationCode = "authorization_code",
        /// A LAN kiosk shows a code that staff approve.
        Device = "device",
    }
}

impl Grant {
    /// Whether `registered` (a client's grants, as stored) include this one.
    pub fn among(self, registered: &[String]) -> bool {
        registered.iter().any(|g| g == self.as_str())
    }
}

string_enum! {
    /// A staff member's role.
    pub enum Role {
        /// Everything.
        Admin = "admin",
        /// Runs the property: everything but settings and set-up.
        Manager = "manager",
        /// Guests, reservations, the desk, housekeeping and invoices.
        FrontDesk = "front_desk",
        /// Rooms and what is booked.
        Housekeeping = "housekeeping",
    }
}

impl Scope {
    /// What the scope allows, in plain words.
    pub fn description(self) -> &'static str {
        match self {
            Scope::GuestsRead => "Read guests.",
            Scope::GuestsWrite => "Create and change guests.",
            Scope::ReservationsRead => "Read reservations, room types, rooms and availability.",
            Scope::ReservationsWrite => "Create, change and cancel reservations.",
            Scope::FrontDesk => "Check-in, check-out and folio charges.",
            Scope::Housekeeping => "Change rooms: housekeeping state and details.",
            Scope::InvoicesRead => "Read invoices.",
            Scope::InvoicesWrite => "Issue invoices, credit notes and payments.",
            Scope::EventsRead => "Read the event feed.",
            Scope::WebhooksManage => "Manage webhook endpoints.",
            Scope::Compliance => "See and retry national compliance submissions.",
            Scope::Admin => "Property settings, room types and rooms set-up, metrics.",
            Scope::RatesRead => "Read rate plans, the price calendar and offers.",
            Scope::RatesWrite => "Create and change rate plans, prices and restrictions.",
            Scope::ChannelManage => {
                "See the channel manager connection's health and send it everything again."
            }
            Scope::ReportsRead => "Read the reports: occupancy, revenue, payments, bookings.",
            Scope::NightAudit => {
                "Close the business day: no-shows, the cash count, the certificate."
            }
        }
    }
}

impl Role {
    /// The scopes a member of this role may grant to an application.
    pub fn scopes(self) -> &'static [Scope] {
        use Scope::*;
        match self {
            Role::Admin => Scope::ALL,
            Role::Manager => &[
                GuestsRead,
                GuestsWrite,
                ReservationsRead,
                ReservationsWrite,
                FrontDesk,
                Housekeeping,
                InvoicesRead,
                InvoicesWrite,
                EventsRead,
                WebhooksManage,
                Compliance,
                RatesRead,
                RatesWrite,
                ChannelManage,
                ReportsRead,
                NightAudit,
            ],
            Role::FrontDesk => &[
                GuestsRead,
                GuestsWrite,
                ReservationsRead,
                ReservationsWrite,
                FrontDesk,
                Housekeeping,
                InvoicesRead,
                InvoicesWrite,
                RatesRead,
            ],
            Role::Housekeeping => &[ReservationsRead, Housekeeping],
        }
    }
}

/// A set of scopes, written space-separated on the wire (RFC 6749 section 3.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeSet(Vec<Scope>);

impl ScopeSet {
    /// Parses a space-separated list; returns the unknown names on failure.
    pub fn parse(text: &str) -> Result<ScopeSet, Vec<String>> {
        let mut set = Vec::new();
        let mut unknown = Vec::new();
        for word in text.split_whitespace() {
            match Scope::parse(word) {
                Some(s) if !set.contains(&s) => set.push(s),
                Some(_) => {}
                None => unknown.push(word.to_string()),
            }
        }
        if unknown.is_empty() {
            set.sort_by_key(|s| Scope::ALL.iter().position(|a| a == s));
            Ok(ScopeSet(set))
        } else {
            Err(unknown)
        }
    }

    /// The scopes of a list.
    pub fn of(scopes: &[Scope]) -> ScopeSet {
        ScopeSet(scopes.to_vec())
    }

    /// Whether `scope` is in the set.
    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// Whether every scope of `other` is in this set.
    pub fn covers(&self, other: &ScopeSet) -> bool {
        other.0.iter().all(|s| self.contains(*s))
    }

    /// The scopes in both sets, in this set's order.
    pub fn intersect(&self, other: &ScopeSet) -> ScopeSet {
        ScopeSet(
            self.0
                .iter()
                .copied()
                .filter(|s| other.contains(*s))
                .collect(),
        )
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The scopes.
    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }
}

impl std::fmt::Display for ScopeSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|s| s.as_str()).collect();
        f.write_str(&names.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_sets_parse_dedupe_and_intersect() {
        let a = ScopeSet::parse("guests:write guests:read guests:read").unwrap();
        assert_eq!(a.to_string(), "guests:read guests:write");
        assert_eq!(
            ScopeSet::parse("guests:read nope").unwrap_err(),
            vec!["nope"]
        );
        let role = ScopeSet::of(Role::Housekeeping.scopes());
        assert_eq!(a.intersect(&role), ScopeSet::default());
        assert!(ScopeSet::of(Role::Admin.scopes()).covers(&a));
        assert!(!role.covers(&a));
    }

    #[test]
    fn every_role_is_within_admin() {
        let admin = ScopeSet::of(Role::Admin.scopes());
        for role in Role::ALL {
            assert!(admin.covers(&ScopeSet::of(role.scopes())));
        }
    }
}
