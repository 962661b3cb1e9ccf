//! Guests' messages, made in the transaction of the change that causes them: a booking
//! made at the desk or through the API is confirmed, a cancellation is confirmed. Each is
//! rendered in the guest's language (their `language`, else the property's) from the
//! catalogues and the `mail/` templates, stored in the outbox with a `Message-ID` derived
//! from the change (the reservation, its version and the kind), and a `mail` job sends it.
//! So a change committed always has its message, and a message never exists without its
//! change. Nothing is made when `[mail]` is not configured or the guest has no e-mail; a
//! booking site's booking is confirmed by the site itself.

use askama::Template;

use crate::db::Tx;
use crate::domain::enums::Language;
use crate::domain::policy::FeeKind;
use crate::error::{AppError, AppResult};
use crate::i18n::{Arg, Lang, T};
use crate::model::Reservation;
use crate::service::mail_texts;
use crate::store;

/// A message in the outbox, as the desk lists it.
pub use crate::store::messages::Stored as Message;

/// What a message says, before it is written out.
pub(crate) struct Mail {
    pub(super) lang: &'static str,
    pub(super) subject: String,
    pub(super) greeting: String,
    pub(super) intro: String,
    pub(super) facts: Vec<(String, String)>,
    pub(super) closing: String,
    /// A link to follow: (its words, where).
    pub(super) link: Option<(String, String)>,
    pub(super) hotel: String,
    pub(super) address: Option<String>,
}

impl Mail {
    /// The message written out: (plain text, HTML).
    pub(super) fn write(&self) -> AppResult<(String, String)> {
        let text = Text { m: self }.render().map_err(AppError::internal)?;
        let html = Html { m: self }.render().map_err(AppError::internal)?;
        Ok((text, html))
    }
}

#[derive(Template)]
#[template(path = "mail/message.html")]
struct Html<'a> {
    m: &'a Mail,
}

#[derive(Template)]
#[template(path = "mail/message.txt")]
struct Text<'a> {
    m: &'a Mail,
}

/// The kinds of message innkeep sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A booking made.
    Confirmation,
    /// A booking cancelled.
    Cancellation,
    /// A few days before arrival, with the pre-check-in link.
    PreArrival,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Confirmation => "confirmation",
            Kind::Cancellation => "cancellation",
            Kind::PreArrival => "pre_arrival",
        }
    }
}

/// The language to write to a guest in: theirs, else the property's country's.
pub(super) fn language(guest: Option<Language>, country: Option<&str>) -> Lang {
    let tag = match (guest, country) {
        (Some(l), _) => l.as_str(),
        (None, Some("IT")) => "it",
        (None, Some("HR")) => "hr",
        _ => "en",
    };
    Lang::parse(tag).unwrap_or(Lang::En)
}

/// The cancellation terms of `plan` for `r`, in words.
fn cancellation(t: &T, plan: &crate::model::RatePlan, r: &Reservation) -> String {
    let c = &plan.cancellation;
    let fee = match c.fee {
        FeeKind::Percent => t.with(
            "mail-fee-percent",
            &[(
                "percent",
                Arg::Num(c.percent.as_ref().map_or(0, |p| p.0) / 100),
            )],
        ),
        other => t.t(&format!("mail-fee-{}", other.as_str())),
    };
    match &c.free_until_days {
        Some(days) => {
            let until = r.arrival.0 - chrono::Days::new(days.0 as u64);
            t.with(
                "mail-free-until",
                &[("date", Arg::Text(t.date(until))), ("fee", Arg::Text(fee))],
            )
        }
        None => t.with("mail-never-free", &[("fee", Arg::Text(fee))]),
    }
}

/// The hotel's address on one line, as a message signs off with it.
pub(super) fn address(settings: &crate::model::Settings) -> Option<String> {
    let a = &settings.seller.as_ref()?.address;
    let line = [
        a.line1.as_ref().map(|l| l.0.clone()),
        a.postal_code.as_ref().map(|p| p.0.clone()),
        a.city.as_ref().map(|c| c.0.clone()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    (!line.is_empty()).then_some(line)
}

/// Makes, stores and queues message `kind` about `r` when mail is on (`domain`: the
/// sender's domain, for the `Message-ID`) and its guest has an address.
pub(crate) fn about(tx: &Tx, domain: Option<&str>, kind: Kind, r: &Reservation) -> AppResult<()> {
    make(tx, domain, kind, r, None, None).map(|_| ())
}

/// [`about`], the `again`-th time when staff ask for it again: the message's id, when it
/// was made.
fn make(
    tx: &Tx,
    domain: Option<&str>,
    kind: Kind,
    r: &Reservation,
    again: Option<usize>,
    public_url: Option<&str>,
) -> AppResult<Option<String>> {
    let Some(domain) = domain else {
        return Ok(None);
    };
    let Some(guest) = store::guests::get(tx, &r.primary_guest_id)? else {
        return Ok(None);
    };
    let Some(to) = guest.email.clone() else {
        return Ok(None);
    };
    let settings = store::settings::get(tx)?;
    let t = T::new(language(guest.language, settings.country.as_deref()));
    let room_type = store::room_types::get(tx, &r.room_type_id)?
        .map(|rt| rt.name)
        .unwrap_or_default();
    let stay = t.with(
        "stay-dates",
        &[
            ("arrival", Arg::Text(t.date(r.arrival.0))),
            ("departure", Arg::Text(t.date(r.departure.0))),
            ("nights", Arg::Text(t.n("nights", r.night_count))),
        ],
    );
    let hotel = settings.name.clone();
    let mut facts = vec![
        (t.t("mail-fact-code"), r.code.clone()),
        (t.t("mail-fact-stay"), stay),
        (t.t("mail-fact-room"), room_type),
    ];
    let plan = match r.rate_plan_id.as_deref() {
        Some(p) => store::rate_plans::get(tx, p)?,
        None => None,
    };
    if let Some(plan) = &plan {
        facts.push((t.t("mail-fact-plan"), plan.name.in_language(t.lang().tag())));
    }
    facts.push((
        t.t("mail-fact-guests"),
        t.with(
            "party",
            &[
                ("adults", Arg::Num(r.adults)),
                ("children", Arg::Num(r.children)),
            ],
        ),
    ));
    if let Some(cin) = &settings.cin {
        facts.push((t.t("mail-fact-cin"), cin.clone()));
    }
    let total: i64 = r.nights.iter().map(|n| n.price).sum();
    if kind == Kind::Confirmation {
        facts.push((t.t("mail-fact-total"), t.money(total, &r.currency)));
        if let Some(plan) = &plan {
            facts.push((t.t("mail-fact-cancellation"), cancellation(&t, plan, r)));
        }
    }
    let values = [
        ("hotel", hotel.clone()),
        ("name", guest.first_name.clone()),
        ("code", r.code.clone()),
    ];
    let k = kind.as_str();
    let intro_key = match (kind, public_url) {
        (Kind::PreArrival, None) => "mail-pre-arrival-intro-plain".to_string(),
        _ => mail_texts::default_key(k, "intro"),
    };
    let subject = mail_texts::say(
        tx,
        &t,
        (k, "subject", &mail_texts::default_key(k, "subject")),
        &values,
    )?;
    let intro = mail_texts::say(tx, &t, (k, "intro", &intro_key), &values)?;
    let closing = mail_texts::say(
        tx,
        &t,
        (k, "closing", &mail_texts::default_key(k, "closing")),
        &values,
    )?;
    let link = match (kind, public_url) {
        (Kind::PreArrival, Some(base)) => Some((
            t.t("mail-pre-arrival-link"),
            format!(
                "{}/pre-check-in/{}",
                base.trim_end_matches('/'),
                crate::service::pre_check_in::token(tx, &r.id, r.departure.0)?
            ),
        )),
        _ => None,
    };
    let mail = Mail {
        lang: t.lang().tag(),
        subject,
        greeting: t.with(
            "mail-greeting",
            &[("name", Arg::Text(guest.first_name.clone()))],
        ),
        intro,
        facts,
        closing,
        link,
        hotel,
        address: address(&settings),
    };
    let (text, html) = mail.write()?;
    let id = crate::ids::new("msg");
    super::outbox::post(
        tx,
        &store::messages::Stored {
            message_id: match again {
                None => format!("<{}.v{}.{}@{domain}>", r.id, r.version, kind.as_str()),
                Some(n) => format!(
                    "<{}.v{}.{}.again{n}@{domain}>",
                    r.id,
                    r.version,
                    kind.as_str()
                ),
            },
            id: id.clone(),
            kind: kind.as_str().into(),
            reservation_id: Some(r.id.clone()),
            invoice_id: None,
            guest_id: Some(guest.id.clone()),
            recipient: to,
            language: mail.lang.into(),
            subject: mail.subject.clone(),
            body_text: text,
            body_html: html,
            ..Default::default()
        },
    )?;
    Ok(Some(id))
}

/// A reservation's messages, oldest first.
pub async fn of_reservation(
    svc: &crate::service::Services,
    p: &crate::model::Principal,
    id: String,
) -> AppResult<Vec<store::messages::Stored>> {
    p.require(crate::domain::scopes::Scope::ReservationsRead)?;
    svc.db()
        .read(move |c| store::messages::of_reservation(c, &id))
        .await
}

/// Sends the guest of reservation `id` its confirmation again (its cancellation, when it
/// is cancelled), as a new message: 409 `mail_off` without `[mail]`, `no_address` when the
/// guest has no e-mail. The message made.
pub async fn send_again(
    svc: &crate::service::Services,
    p: &crate::model::Principal,
    id: String,
) -> AppResult<Message> {
    p.require(crate::domain::scopes::Scope::ReservationsWrite)?;
    let Some(domain) = svc.mail_domain() else {
        return Err(AppError::conflict(
            "mail_off",
            "No mail relay is configured: add a [mail] section to innkeep.toml.",
        )
        .with_said(crate::domain::said::Said::plain("problem-mail-off")));
    };
    svc.db()
        .write(move |tx| {
            let r = store::reservations::get(tx, &id)?
                .ok_or_else(|| AppError::not_found("reservation", &id))?;
            let kind = match r.status {
                crate::domain::reservation::Status::Cancelled => Kind::Cancellation,
                _ => Kind::Confirmation,
            };
            let before = store::messages::of_reservation(tx, &id)?;
            let again = before.iter().filter(|m| m.kind == kind.as_str()).count();
            if let Some(made) = make(tx, Some(&domain), kind, &r, Some(again), None)? {
                store::messages::get(tx, &made)?
                    .ok_or_else(|| AppError::internal("a message just made is missing"))
            } else {
                Err(AppError::conflict(
                    "no_address",
                    "The guest has no e-mail address: add one on the guest's page first.",
                )
                .with_said(crate::domain::said::Said::plain("problem-no-address")))
            }
        })
        .await
}

/// Makes the pre-arrival message of every confirmed booking arriving `days` days from today
/// (in the property's time) that has none yet, with the pre-check-in link under
/// `public_url` when there is one; how many were made.
pub async fn pre_arrivals(
    svc: &crate::service::Services,
    days: u32,
    public_url: Option<String>,
) -> AppResult<usize> {
    let Some(domain) = svc.mail_domain() else {
        return Ok(0);
    };
    if days == 0 {
        return Ok(0);
    }
    let clock = svc.db().clock().clone();
    svc.db()
        .write(move |tx| {
            let today = clock.today_in(&store::settings::get(tx)?.time_zone);
            let day = today + chrono::Days::new(u64::from(days));
            let mut made = 0;
            for id in store::messages::without_pre_arrival(tx, day)? {
                if let Some(r) = store::reservations::get(tx, &id)?
                    && make(
                        tx,
                        Some(&domain),
                        Kind::PreArrival,
                        &r,
                        None,
                        public_url.as_deref(),
                    )?
                    .is_some()
                {
                    made += 1;
                }
            }
            Ok(made)
        })
        .await
}
