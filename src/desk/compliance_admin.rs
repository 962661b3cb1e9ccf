//! The compliance centre (`/admin/compliance`, screen 10): what the police or the tax
//! authority has not yet accepted, overdue first, each with "Send again" where that helps;
//! the day's registration file to download for a manual upload; the official code tables
//! loaded and a new one uploaded (the import of `innkeep compliance import-table`); the
//! schemes in force and the fiscal certificate's subject and expiry.

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::{Data, Multipart, Path, Query};
use poem::{Body, Request, Response, handler};

use super::{DeskState, Shell, open, open_post, or_answer, page, refused, server_error, signed_in};
use super::{web, words};
use crate::compliance::codes::TABLES;
use crate::domain::enums::{EInvoiceStatus, SubmissionKind, SubmissionStatus};
use crate::error::Kind;
use crate::i18n::{Arg, T};
use crate::service::compliance_centre::{self, Centre};
use crate::service::{registration, submissions};

/// The largest code table accepted (the official `Luoghi` is about 1 MB).
const MAX_TABLE: usize = 16 * 1024 * 1024;

#[derive(Template)]
#[template(path = "desk/compliance_admin.html")]
struct CentrePage {
    shell: Shell,
    problem: Option<String>,
    facts: Vec<(String, String)>,
    /// The certificate expires within 30 days.
    certificate_warning: Option<String>,
    /// (id, what, subject link, status, due, attempts, last error, urgent class, retryable).
    open: Vec<Row>,
    registration: bool,
    /// Whether there is a cash register whose day can be closed from here.
    cash_register: bool,
    day: String,
    /// Whether the tables are fetched from the authority (a button fetches them now).
    fetched: bool,
    tables: Vec<[String; 4]>,
    table_names: Vec<String>,
    upload_error: Option<String>,
}

/// One submission waiting.
struct Row {
    id: String,
    what: String,
    link: (String, String),
    status: String,
    due: String,
    urgency: &'static str,
    /// The authority's answer in plain words, and its own text behind "details".
    error: (String, String),
    retryable: bool,
}

/// What an authority's refusal means, in plain words: the common cases recognised by their
/// codes and words, else a general sentence; the raw text goes behind "details".
fn plain(t: &T, raw: &str) -> String {
    let lower = raw.to_lowercase();
    let key =
        if lower.contains("timed out") || lower.contains("timeout") || lower.contains("connect") {
            "compliance-error-unreachable"
        } else if lower.contains("certificate") || lower.contains("certifikat") {
            "compliance-error-certificate"
        } else if lower.contains("password") || lower.contains("token") || lower.contains("auth") {
            "compliance-error-credentials"
        } else {
            "compliance-error-refused"
        };
    t.t(key)
}

fn rows_of(t: &T, c: &Centre, time_zone: &str) -> Vec<Row> {
    c.open
        .iter()
        .map(|s| {
            let link = match s.subject_id.split('_').next() {
                Some("inv") => format!("/invoices/{}", s.subject_id),
                _ => format!("/reservations/{}", s.subject_id),
            };
            let urgency = match (s.overdue, s.due_soon) {
                (true, _) => "overdue",
                (_, true) => "due-soon",
                _ => "",
            };
            let einvoice = c
                .einvoices
                .get(&s.subject_id)
                .copied()
                .filter(|_| s.kind == SubmissionKind::EInvoice);
            let reissue =
                einvoice == Some(EInvoiceStatus::Rejected) && s.authority_reference.is_some();
            let due = crate::clock::local_time(&s.due_at.0, time_zone)
                .map_or_else(|| s.due_at.0.clone(), |(d, at)| t.moment(d, at));
            Row {
                id: s.id.clone(),
                what: t.t(&format!("submission-kind-{}", s.kind.as_str())),
                link: (
                    link,
                    c.subjects
                        .get(&s.subject_id)
                        .cloned()
                        .unwrap_or_else(|| s.subject_id.clone()),
                ),
                // An e-invoice on its way says how far it got (sent, delivered).
                status: match einvoice {
                    _ if reissue => t.t("einvoice-refused-after-delivery"),
                    Some(e) if e != EInvoiceStatus::Rejected => {
                        t.t(&format!("einvoice-status-{}", e.as_str()))
                    }
                    _ => t.t(&format!("submission-{}", s.status.as_str())),
                },
                due: match urgency {
                    "overdue" => t.with("submission-overdue", &[("due", Arg::Text(due))]),
                    _ => due,
                },
                urgency,
                error: match &s.last_error {
                    Some(raw) if reissue => (t.t("compliance-error-einvoice-reissue"), raw.clone()),
                    Some(raw) if !raw.trim().is_empty() => (plain(t, raw), raw.clone()),
                    _ => (String::new(), String::new()),
                },
                // An e-invoice the tax administration refused after the intermediary took it
                // cannot go again under its number: it is reversed and issued anew.
                retryable: !reissue
                    && matches!(
                        s.status,
                        SubmissionStatus::Rejected
                            | SubmissionStatus::ManualRequired
                            | SubmissionStatus::Unknown
                            | SubmissionStatus::Retrying
                    ),
            }
        })
        .collect()
}

async fn render(
    state: &DeskState,
    s: &super::DeskSession,
    shell: Shell,
    status: StatusCode,
    problem: Option<String>,
    upload_error: Option<String>,
) -> Response {
    let t = &shell.t;
    let c = match compliance_centre::centre(&state.svc, &s.principal).await {
        Ok(c) => c,
        Err(e) => return server_error(t, &e),
    };
    let mut facts = vec![
        (
            t.t("settings-registration"),
            t.t(&format!("scheme-{}", c.registration)),
        ),
        (t.t("settings-fiscal"), t.t(&format!("scheme-{}", c.fiscal))),
        (
            t.t("settings-einvoice"),
            t.t(&format!("scheme-{}", c.einvoice)),
        ),
    ];
    let mut certificate_warning = None;
    if let Some((subject, until)) = &c.certificate {
        let days = (*until - state.svc.db().clock().now()).num_days();
        facts.push((t.t("compliance-certificate"), subject.clone()));
        facts.push((
            t.t("compliance-certificate-until"),
            t.with(
                "compliance-days-left",
                &[
                    ("day", Arg::Text(t.short_date(until.date_naive()))),
                    ("count", Arg::Num(days)),
                ],
            ),
        ));
        if days < 30 {
            certificate_warning = Some(t.n("compliance-certificate-renew", days));
        }
    }
    let fetched = state.svc.compliance().registration.fetches_tables();
    let body = CentrePage {
        problem,
        facts,
        certificate_warning,
        open: rows_of(t, &c, &s.time_zone),
        registration: c.registration != "none",
        cash_register: state.svc.compliance().fiscal.name() == crate::compliance::rt::NAME,
        day: s.today.to_string(),
        tables: c
            .tables
            .iter()
            .map(|x| {
                [
                    x.table.clone(),
                    x.rows.to_string(),
                    x.source.clone(),
                    x.imported_at
                        .get(..10)
                        .unwrap_or(&x.imported_at)
                        .to_string(),
                ]
            })
            .collect(),
        table_names: match state.svc.compliance().registration.table_names() {
            [] => TABLES.as_slice(),
            names => names,
        }
        .iter()
        .map(|x| x.to_string())
        .collect(),
        fetched,
        upload_error,
        shell,
    };
    page(status, &body)
}

/// `GET /admin/compliance`.
#[handler]
pub async fn centre(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ADMIN).await);
    let shell = Shell::new(&s, t, "admin").after(req);
    render(&state, &s, shell, StatusCode::OK, None, None).await
}

/// `POST /admin/compliance/submissions/{id}`: sends a submission again.
#[handler]
pub async fn retry(
    req: &Request,
    Path(id): Path<String>,
    body: Body,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t, _) = or_answer!(open_post(req, body, &state, super::ADMIN).await);
    match submissions::retry(&state.svc, &s.principal, id).await {
        Ok(_) => web::redirect(
            StatusCode::SEE_OTHER,
            "/admin/compliance?done=submission-retried",
        ),
        Err(e)
            if matches!(
                e.kind,
                Kind::Conflict | Kind::Unprocessable | Kind::NotFound
            ) =>
        {
            let shell = Shell::new(&s, t, "admin");
            render(
                &state,
                &s,
                shell,
                StatusCode::CONFLICT,
                Some(super::rules::detail(&t, &e)),
                None,
            )
            .await
        }
        Err(e) => server_error(&t, &e),
    }
}

/// `POST /admin/compliance/cash-register/close`: the cash register's daily closure, now.
#[handler]
pub async fn close_day(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, _) = or_answer!(open_post(req, body, &state, super::ADMIN).await);
    match crate::service::cash_register::close(&state.svc, &s.principal).await {
        Ok(_) => web::redirect(
            StatusCode::SEE_OTHER,
            "/admin/compliance?done=cash-register-closed",
        ),
        Err(e) if e.kind == Kind::Conflict => {
            let shell = Shell::new(&s, t, "admin");
            let problem = Some(shell.t.with(
                "compliance-close-failed",
                &[("why", Arg::Text(e.detail.clone()))],
            ));
            render(&state, &s, shell, StatusCode::CONFLICT, problem, None).await
        }
        Err(e) => server_error(&t, &e),
    }
}

/// `POST /admin/compliance/tables/fetch`: fetches the authority's code tables now.
#[handler]
pub async fn fetch(req: &Request, body: Body, state: Data<&Arc<DeskState>>) -> Response {
    let (s, t, _) = or_answer!(open_post(req, body, &state, super::ADMIN).await);
    match crate::service::code_tables::fetch_now(&state.svc, &s.principal).await {
        Ok(_) => web::redirect(
            StatusCode::SEE_OTHER,
            "/admin/compliance?done=tables-fetched",
        ),
        Err(e) if e.kind == Kind::Conflict => {
            let shell = Shell::new(&s, t, "admin");
            let problem = Some(shell.t.with(
                "compliance-fetch-failed",
                &[("why", Arg::Text(e.detail.clone()))],
            ));
            render(&state, &s, shell, StatusCode::CONFLICT, problem, None).await
        }
        Err(e) => server_error(&t, &e),
    }
}

/// The registration file's query.
#[derive(Debug, Default, serde::Deserialize)]
pub struct FileAsk {
    day: Option<String>,
    all: Option<String>,
}

/// `GET /admin/compliance/registration-file?day=…`: the day's rows as the authority's file.
#[handler]
pub async fn registration_file(
    req: &Request,
    Query(ask): Query<FileAsk>,
    state: Data<&Arc<DeskState>>,
) -> Response {
    let (s, t) = or_answer!(open(req, &state, super::ADMIN).await);
    let day = match ask.day.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        None => s.today,
        Some(d) => match d.parse::<NaiveDate>() {
            Ok(d) => d,
            Err(_) => {
                let shell = Shell::new(&s, t, "admin");
                let problem = Some(shell.t.t("error-date"));
                return render(
                    &state,
                    &s,
                    shell,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    problem,
                    None,
                )
                .await;
            }
        },
    };
    match registration::export(&state.svc, &s.principal, day, ask.all.is_some()).await {
        Ok((file, _)) => Response::builder()
            .status(StatusCode::OK)
            .content_type("text/plain; charset=utf-8")
            .header(
                "content-disposition",
                format!("attachment; filename=\"registration-{day}.txt\""),
            )
            .header("cache-control", "no-store")
            .body(file),
        Err(e) => server_error(&t, &e),
    }
}

/// `POST /admin/compliance/tables` (multipart: `csrf`, `table`, `file`): imports a code table.
#[handler]
pub async fn upload(req: &Request, mut form: Multipart, state: Data<&Arc<DeskState>>) -> Response {
    let s = match signed_in(req, &state).await {
        Ok(s) => s,
        Err(answer) => return answer,
    };
    let t = words(req);
    // Refused before the upload is read, as every administration page.
    if let Some(refusal) = super::lacking(&s, &t, super::ADMIN) {
        return refusal;
    }
    let mut fields: HashMap<String, String> = HashMap::new();
    let mut file: Option<(String, Result<String, String>)> = None;
    while let Ok(Some(field)) = form.next_field().await {
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            let source = field.file_name().unwrap_or("upload").to_string();
            let text = match field.bytes().await {
                Ok(b) if b.len() > MAX_TABLE => Err(t.t("compliance-table-too-big")),
                Ok(b) => String::from_utf8(b).map_err(|_| t.t("compliance-table-not-text")),
                Err(_) => Err(t.t("compliance-table-not-text")),
            };
            file = Some((source, text));
        } else if let Ok(v) = field.text().await {
            fields.insert(name, v);
        }
    }
    if let Some(r) = refused(req, &s, &fields) {
        return r;
    }
    let table = fields.get("table").cloned().unwrap_or_default();
    let outcome = match file {
        None => Err(t.t("compliance-table-missing")),
        Some((_, Err(why))) => Err(why),
        Some((source, Ok(text))) if text.trim().is_empty() => {
            Err(t.with("compliance-table-empty", &[("file", Arg::Text(source))]))
        }
        Some((source, Ok(text))) => {
            match compliance_centre::import_table(&state.svc, &s.principal, &table, text, source)
                .await
            {
                Ok(_) => Ok(()),
                Err(e) if !e.errors.is_empty() => Err(super::rules::say(&t, &e.errors[0])),
                Err(e) => return server_error(&t, &e),
            }
        }
    };
    match outcome {
        Ok(()) => web::redirect(
            StatusCode::SEE_OTHER,
            "/admin/compliance?done=table-imported",
        ),
        Err(why) => {
            let shell = Shell::new(&s, t, "admin");
            let problem = Some(shell.t.n("form-errors", 1));
            render(
                &state,
                &s,
                shell,
                StatusCode::UNPROCESSABLE_ENTITY,
                problem,
                Some(why),
            )
            .await
        }
    }
}
