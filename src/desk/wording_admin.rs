//! Administration › Wording of messages (`/admin/wording`, the admin role): the subject,
//! opening and closing of each guest message in each language, with the standard wording
//! shown until the hotel writes its own, a preview of the message as the guest reads it,
//! and "Use the standard wording" to go back. What is refused (a brace that is not a
//! placeholder, an empty or over-long part) is said next to its field, and what was typed
//! stays.

use std::sync::Arc;

use askama::Template;
use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};

use super::{DeskState, Shell, open_admin, open_admin_post, or_answer, page, server_error, web};
use crate::error::{AppError, Kind};
use crate::i18n::T;
use crate::service::mail_texts::{self, KINDS, PARTS};

#[derive(Template)]
#[template(path = "desk/wording_admin.html")]
struct WordingPage {
    shell: Shell,
    /// (kind, its name, chosen).
    kinds: Vec<(String, String, bool)>,
    /// (language, its name, chosen).
    languages: Vec<(String, String, bool)>,
    kind: String,
    lang: String,
    /// The placeholders this kind may use, as written.
    placeholders: String,
    fields: Vec<Part>,
    /// The preview: (subject, HTML of the message).
    preview: Option<(String, String)>,
    problem: Option<String>,
}

/// One part of the wording on the form.
struct Part {
    name: &'static str,
    label: String,
    text: String,
    /// "Your own wording" or "The standard wording".
    whose: String,
    error: Option<String>,
}

/// The kind and language asked for (`?kind=…&lang=…`), defaulting to the confirmation in
/// the page's language.
fn chosen(query: Option<&str>, t: &T) -> (String, String) {
    let get = |key: &str| {
        query.and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        })
    };
    let kind = get("kind")
        .filter(|k| KINDS.contains(k))
        .unwrap_or("confirmation");
    let lang = get("lang")
        .filter(|l| crate::i18n::Lang::parse(l).is_some())
        .unwrap_or(t.lang().tag());
    (kind.to_string(), lang.to_string())
}

fn render(
    shell: Shell,
    (kind, lang): (String, String),
    texts: Vec<(String, String, bool)>,
    errors: &[crate::error::FieldError],
    preview: Option<(String, String)>,
    problem: Option<String>,
    status: StatusCode,
) -> Response {
    let t = &shell.t;
    // A preview or a refusal shows what was typed, not what is saved.
    let unsaved = preview.is_some() || !errors.is_empty();
    let fields = PARTS
        .iter()
        .zip(texts)
        .map(|(name, (_, text, own))| Part {
            name,
            label: t.t(&format!("wording-{name}")),
            whose: t.t(match (unsaved, own) {
                (true, _) => "wording-unsaved",
                (false, true) => "wording-own",
                (false, false) => "wording-standard",
            }),
            error: errors
                .iter()
                .find(|e| e.field == *name)
                .map(|e| super::rules::say(t, e)),
            text,
        })
        .collect();
    let body = WordingPage {
        kinds: KINDS
            .iter()
            .map(|k| (k.to_string(), t.t(&format!("message-kind-{k}")), *k == kind))
            .collect(),
        languages: ["en", "it", "hr"]
            .iter()
            .map(|l| (l.to_string(), t.t(&format!("language-{l}")), *l == lang))
            .collect(),
        placeholders: mail_texts::placeholders(&kind)
            .iter()
            .map(|p| format!("{{{p}}}"))
            .collect::<Vec<_>>()
            .join(" "),
        kind,
        lang,
        fields,
        preview,
        problem,
        shell,
    };
    page(status, &body)
}

/// `GET /admin/wording`.
#[handler]
pub async fn show(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open_admin(req, &state).await);
    let (kind, lang) = chosen(req.uri().query(), &t);
    let texts = match mail_texts::of(&state.svc, &s.principal, kind.clone(), lang.clone()).await {
        Ok(x) => x,
        Err(e) => return server_error(&t, &e),
    };
    let shell = Shell::new(&s, t, "admin").after(req);
    render(shell, (kind, lang), texts, &[], None, None, StatusCode::OK)
}

/// `POST /admin/wording`: `action` = `preview`, `save` or `standard`.
#[handler]
pub async fn save(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, form) = or_answer!(open_admin_post(req, body, &state).await);
    let field = |k: &str| form.get(k).cloned().unwrap_or_default();
    let (kind, lang) = chosen(
        Some(&format!("kind={}&lang={}", field("kind"), field("lang"))),
        &t,
    );
    let typed = PARTS.map(|p| field(p).replace("\r\n", "\n"));
    let back = format!("/admin/wording?kind={kind}&lang={lang}");
    let outcome = match field("action").as_str() {
        "preview" => {
            match mail_texts::preview(
                &state.svc,
                &s.principal,
                (kind.clone(), lang.clone()),
                typed.clone(),
            )
            .await
            {
                Ok(shown) => Ok(Some(shown)),
                Err(e) => Err(e),
            }
        }
        "standard" => mail_texts::save(
            &state.svc,
            &s.principal,
            (kind.clone(), lang.clone()),
            [None, None, None],
        )
        .await
        .map(|()| None),
        _ => mail_texts::save(
            &state.svc,
            &s.principal,
            (kind.clone(), lang.clone()),
            typed.clone().map(Some),
        )
        .await
        .map(|()| None),
    };
    let typed_texts = |own: bool| -> Vec<(String, String, bool)> {
        PARTS
            .iter()
            .zip(&typed)
            .map(|(p, x)| (p.to_string(), x.clone(), own))
            .collect()
    };
    let shell = Shell::new(&s, t, "admin").after(req);
    match outcome {
        Ok(None) => web::redirect(StatusCode::SEE_OTHER, &format!("{back}&done=wording-saved")),
        Ok(Some(shown)) => render(
            shell,
            (kind, lang),
            typed_texts(true),
            &[],
            Some(shown),
            None,
            StatusCode::OK,
        ),
        Err(AppError {
            kind: Kind::Unprocessable,
            errors,
            ..
        }) => {
            let problem = Some(shell.t.t("wording-refused"));
            render(
                shell,
                (kind, lang),
                typed_texts(true),
                &errors,
                None,
                problem,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
        Err(e) => server_error(&shell.t, &e),
    }
}
