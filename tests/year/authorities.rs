//! The national systems the year's hotel talks to, by country, as simulators: starting them
//! and the hotel configured for them, moving their day with the hotel's, closing the day
//! (Italy's cash register), and at the end the checks on what each of them received.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde_json::Value;

use crate::api::Api;
use crate::books::{self, Books};
use crate::country::Country;
use crate::run::Stay;
use crate::support::{TestApp, alloggiati_sim, cis_sim, evisitor_sim, mer_sim, rt_sim, sdi_sim};

/// The simulators of one country.
pub enum Authorities {
    /// eVisitor (registrations), the CIS (receipts), moj-eRačun (e-invoices).
    Croatia {
        evisitor: evisitor_sim::Sim,
        cis: cis_sim::Sim,
        mer: mer_sim::Sim,
    },
    /// Alloggiati Web (registrations), the cash register (receipts), SdI (e-invoices).
    Italy {
        alloggiati: alloggiati_sim::Sim,
        rt: rt_sim::Sim,
        sdi: sdi_sim::Sim,
    },
}

impl Authorities {
    /// The simulators and the hotel, its clock on `first`.
    pub async fn start(
        country: Country,
        first: NaiveDate,
        mail: innkeep::config::mail::MailConfig,
    ) -> (Authorities, TestApp) {
        let authorities = match country {
            Country::Croatia => Authorities::Croatia {
                evisitor: evisitor_sim::Sim::start().await,
                cis: cis_sim::Sim::start(),
                mer: mer_sim::Sim::start().await,
            },
            Country::Italy => Authorities::Italy {
                alloggiati: alloggiati_sim::Sim::start(first).await,
                rt: rt_sim::Sim::start().await,
                sdi: sdi_sim::Sim::start().await,
            },
        };
        let app = match &authorities {
            Authorities::Croatia { evisitor, cis, mer } => {
                crate::support::evisitor::hotel_configured(evisitor, Some(cis), Some(mer), |c| {
                    c.mail = Some(mail)
                })
                .await
            }
            Authorities::Italy {
                alloggiati,
                rt,
                sdi,
            } => {
                crate::support::sdi::hotel_registering_configured(alloggiati, sdi, rt, |c| {
                    c.mail = Some(mail)
                })
                .await
            }
        };
        authorities.set_day(&app, first);
        (authorities, app)
    }

    /// Makes it 08:30 at the hotel (07:30 UTC: in winter 08:30 in Zagreb and Rome, in summer
    /// 09:30; the same day) on `d`, for the hotel and the registration office.
    pub fn set_day(&self, app: &TestApp, d: NaiveDate) {
        app.clock()
            .set_now(d.and_hms_opt(7, 30, 0).unwrap().and_utc());
        match self {
            Authorities::Croatia { evisitor, .. } => evisitor.set_today(d),
            Authorities::Italy { alloggiati, .. } => alloggiati.set_today(d),
        }
    }

    /// Guests the registration office holds, and (where it is told of departures) of those,
    /// checked out.
    pub fn registered(&self) -> (usize, Option<usize>) {
        match self {
            Authorities::Croatia { evisitor, .. } => {
                let held = evisitor.held();
                let out = held.values().filter(|h| h.checked_out.is_some()).count();
                (held.len(), Some(out))
            }
            Authorities::Italy { alloggiati, .. } => (alloggiati.stored().len(), None),
        }
    }

    /// The registration office's name, for the report.
    pub fn registration_office(&self) -> &'static str {
        match self {
            Authorities::Croatia { .. } => "eVisitor",
            Authorities::Italy { .. } => "Alloggiati Web",
        }
    }

    /// What the authorities received, against the server's lists and the run's stays and
    /// takings (Italy: cash and card per day).
    pub fn check(
        &self,
        b: &mut Books,
        stays: &[Stay],
        lists: &Lists,
        takings: &BTreeMap<NaiveDate, (i64, i64)>,
    ) {
        books::check_registrations(b, stays, &lists.reservations, self.registered());
        books::check_deadlines(b, &lists.submissions);
        match self {
            Authorities::Croatia { cis, mer, .. } => {
                let received: Vec<(String, String)> = cis
                    .received()
                    .into_iter()
                    .map(|r| (r.zki, r.number))
                    .collect();
                books::check_receipts(b, &lists.invoices, &received);
                crate::einvoices::check(b, &lists.invoices, &lists.submissions, &mer.docs());
            }
            Authorities::Italy { rt, sdi, .. } => {
                crate::italy::check_receipts(
                    b,
                    &lists.invoices,
                    &rt.docs(),
                    &rt.closures(),
                    takings,
                );
                crate::italy::check_einvoices(b, &lists.invoices, &sdi.sent());
            }
        }
    }
}

/// The server's lists at the end.
pub struct Lists {
    pub invoices: Vec<Value>,
    pub reservations: Vec<Value>,
    pub submissions: Vec<Value>,
}

impl Lists {
    pub async fn read(api: &Api<'_>) -> Lists {
        Lists {
            invoices: api.all("/v1/invoices").await,
            reservations: api.all("/v1/reservations").await,
            submissions: api.all("/v1/compliance/submissions").await,
        }
    }
}
