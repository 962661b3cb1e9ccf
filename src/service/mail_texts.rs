//! The wording of guests' messages, editable per kind and language in Administration ›
//! Wording of messages: the subject, the opening paragraph and the closing one of the
//! confirmation, the pre-arrival message, the invoice's and the cancellation's. A safe
//! subset only: plain text (written out escaped, never as HTML) with the placeholders
//! `{hotel}`, `{name}` and `{code}` (the invoice's `{number}`), nothing else in braces.
//! The facts (dates, room, price, cancellation terms, the pre-check-in link, the files)
//! stay innkeep's: a hotel words its welcome, it cannot drop what the law or the guest
//! needs. Without its own wording a message speaks the catalogues'.

use rusqlite::Connection;

use crate::domain::said::Value;
use crate::error::{AppError, AppResult, FieldError};
use crate::i18n::{Arg, T};
use crate::model::Principal;
use crate::service::Services;
use crate::store;

/// The kinds whose wording a hotel may change.
pub const KINDS: [&str; 4] = ["confirmation", "pre_arrival", "invoice", "cancellation"];
/// The parts of each: the subject line, the opening and the closing paragraph.
pub const PARTS: [&str; 3] = ["subject", "intro", "closing"];

/// The placeholders `kind`'s wording may use.
pub fn placeholders(kind: &str) -> &'static [&'static str] {
    if kind == "invoice" {
        &["hotel", "name", "number"]
    } else {
        &["hotel", "name", "code"]
    }
}

/// The longest each part may be, in characters.
fn limit(part: &str) -> usize {
    if part == "subject" { 150 } else { 1000 }
}

/// The catalogue's key for `kind`'s `part` (the plain variant where there are several).
pub fn default_key(kind: &str, part: &str) -> String {
    format!("mail-{}-{part}", kind.replace('_', "-"))
}

/// `text` with each `{placeholder}` replaced by its value in `values`.
fn fill(text: &str, values: &[(&str, String)]) -> String {
    values.iter().fold(text.to_string(), |out, (k, v)| {
        out.replace(&format!("{{{k}}}"), v)
    })
}

/// What `kind`'s `part` says in `t`'s language with `values`: the hotel's wording, else
/// the catalogue's sentence `key`.
pub(crate) fn say(
    c: &Connection,
    t: &T,
    (kind, part, key): (&str, &str, &str),
    values: &[(&str, String)],
) -> AppResult<String> {
    Ok(
        match store::messages::wording(c, kind, t.lang().tag(), part)? {
            Some(own) => fill(&own, values),
            None => {
                let args: Vec<(&str, Arg)> = values
                    .iter()
                    .map(|(k, v)| (*k, Arg::Text(v.clone())))
                    .collect();
                t.with(key, &args)
            }
        },
    )
}

/// The problems of `text` as `kind`'s `part`: empty, too long, a line break in a subject,
/// or braces around anything but a placeholder.
pub fn check(kind: &str, part: &str, text: &str) -> Option<FieldError> {
    let said =
        |code: &'static str, msg: String, key: &'static str, v: Vec<(&'static str, Value)>| {
            let mut e = FieldError::new(part, code, msg);
            e.said = Some(crate::domain::said::Said::new(key, v));
            Some(e)
        };
    let n = text.chars().count();
    if text.trim().is_empty() {
        return said("blank", "must not be empty".into(), "rule-blank", vec![]);
    }
    if n > limit(part) {
        let max = limit(part) as i64;
        return said(
            "too_long",
            format!("must be at most {max} characters"),
            "rule-too_long",
            vec![("n1", Value::Num(max))],
        );
    }
    if part == "subject" && text.contains(['\n', '\r']) {
        return said(
            "one_line",
            "must be one line".into(),
            "problem-wording-one-line",
            vec![],
        );
    }
    let allowed = placeholders(kind);
    let mut rest = text;
    while let Some(open) = rest.find(['{', '}']) {
        let tail = &rest[open..];
        let name = tail
            .strip_prefix('{')
            .and_then(|t| t.split_once('}'))
            .map(|(name, _)| name);
        match name {
            Some(name) if allowed.contains(&name) => rest = &tail[name.len() + 2..],
            _ => {
                let list = allowed
                    .iter()
                    .map(|p| format!("{{{p}}}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                return said(
                    "unknown_placeholder",
                    format!("may use only the placeholders {list}; any other braces are refused"),
                    "problem-wording-placeholder",
                    vec![("list", Value::Text(list))],
                );
            }
        }
    }
    None
}

/// `kind`'s wording in language `lang`: (part, the text in force, whether it is the hotel's
/// own).
pub async fn of(
    svc: &Services,
    p: &Principal,
    kind: String,
    lang: String,
) -> AppResult<Vec<(String, String, bool)>> {
    p.require(crate::domain::scopes::Scope::Admin)?;
    let t = T::new(crate::i18n::Lang::parse(&lang).unwrap_or(crate::i18n::Lang::En));
    svc.db()
        .read(move |c| {
            let mut out = Vec::new();
            for part in PARTS {
                let own = store::messages::wording(c, &kind, &lang, part)?;
                let shown = own.clone().unwrap_or_else(|| {
                    // The catalogue's sentence with its placeholders as the form shows them.
                    let args: Vec<(&str, Arg)> = placeholders(&kind)
                        .iter()
                        .map(|p| (*p, Arg::Text(format!("{{{p}}}"))))
                        .collect();
                    t.with(&default_key(&kind, part), &args)
                });
                out.push((part.to_string(), shown, own.is_some()));
            }
            Ok(out)
        })
        .await
}

/// Saves `kind`'s wording in `lang` (`texts`: subject, intro, closing), every part checked
/// first: 422 naming each part refused. `None` for a part goes back to the catalogue's.
pub async fn save(
    svc: &Services,
    p: &Principal,
    (kind, lang): (String, String),
    texts: [Option<String>; 3],
) -> AppResult<()> {
    p.require(crate::domain::scopes::Scope::Admin)?;
    if !KINDS.contains(&kind.as_str()) || crate::i18n::Lang::parse(&lang).is_none() {
        return Err(AppError::not_found("wording", &format!("{kind}/{lang}")));
    }
    let errors: Vec<FieldError> = PARTS
        .iter()
        .zip(&texts)
        .filter_map(|(part, text)| text.as_deref().and_then(|t| check(&kind, part, t)))
        .collect();
    if !errors.is_empty() {
        return Err(AppError::validation(errors));
    }
    svc.db()
        .write(move |tx| {
            for (part, text) in PARTS.iter().zip(texts) {
                store::messages::set_wording(tx, &kind, &lang, part, text.as_deref())?;
            }
            Ok(())
        })
        .await
}

/// `kind` as the guest would read it in `lang` with `texts` (subject, intro, closing) and
/// a made-up booking: (subject, HTML), or 422 naming each part refused.
pub async fn preview(
    svc: &Services,
    p: &Principal,
    (kind, lang): (String, String),
    texts: [String; 3],
) -> AppResult<(String, String)> {
    p.require(crate::domain::scopes::Scope::Admin)?;
    let errors: Vec<FieldError> = PARTS
        .iter()
        .zip(&texts)
        .filter_map(|(part, text)| check(&kind, part, text))
        .collect();
    if !errors.is_empty() {
        return Err(AppError::validation(errors));
    }
    let today = svc.db().clock().now().date_naive();
    svc.db()
        .read(move |c| {
            let settings = store::settings::get(c)?;
            let t = T::new(crate::i18n::Lang::parse(&lang).unwrap_or(crate::i18n::Lang::En));
            let values = [
                ("hotel", settings.name.clone()),
                ("name", "Anna".to_string()),
                ("code", "K7M2Q9".to_string()),
                ("number", format!("{}-000042", today.format("%Y"))),
            ];
            let [subject, intro, closing] = texts.map(|x| fill(&x, &values));
            let (arrival, departure) =
                (today + chrono::Days::new(14), today + chrono::Days::new(16));
            let mut facts = vec![
                (t.t("mail-fact-code"), "K7M2Q9".to_string()),
                (
                    t.t("mail-fact-stay"),
                    t.with(
                        "stay-dates",
                        &[
                            ("arrival", Arg::Text(t.date(arrival))),
                            ("departure", Arg::Text(t.date(departure))),
                            ("nights", Arg::Text(t.n("nights", 2))),
                        ],
                    ),
                ),
            ];
            if kind == "invoice" {
                facts = vec![(t.t("mail-fact-invoice"), values[3].1.clone())];
            }
            facts.push((t.t("mail-fact-total"), t.money(24_000, &settings.currency)));
            let link = (kind == "pre_arrival").then(|| {
                (
                    t.t("mail-pre-arrival-link"),
                    "https://…/pre-check-in/…".to_string(),
                )
            });
            let mail = super::messages::Mail {
                lang: t.lang().tag(),
                subject: subject.clone(),
                greeting: t.with("mail-greeting", &[("name", Arg::Text("Anna".into()))]),
                intro,
                facts,
                closing,
                link,
                hotel: settings.name.clone(),
                address: super::messages::address(&settings),
            };
            let (_, html) = mail.write()?;
            Ok((subject, html))
        })
        .await
}
