//! Pairing a self check-in kiosk and keeping it paired: a visit shows the "Pair this kiosk"
//! button (and writes nothing), `POST /kiosk/pair` starts the device flow (limited per
//! address), the waiting page asks every 5 seconds whether staff approved it, and every
//! request checks the pairing against its grant (`service::kiosk::standing`): a kiosk that
//! was unpaired, outlived `[desk] kiosk_days`, lost its approver or its client says so.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};

use super::kiosk::{COOKIE, Screen, cookie, show};
use super::kiosk_language::{self, kiosk_words};
use super::{DeskState, server_error, web};
use crate::error::AppError;
use crate::i18n::{Arg, T};
use crate::service::kiosk::{self, KioskSession, Standing};

/// How the front desk approves this kiosk (`key`), with the address staff open: the
/// configured one, never the one this request came with.
fn how(t: &T, state: &DeskState, key: &str) -> String {
    let url = format!("{}/device", state.auth.public);
    t.with(key, &[("url", Arg::Text(url))])
}

/// The kiosk's standing behind the request's cookie, if it has one.
async fn standing(req: &Request, state: &DeskState) -> Result<(String, Standing), AppError> {
    let c = cookie(req);
    let s = kiosk::standing(&state.auth, &state.svc, c.as_deref(), state.timeouts.kiosk).await?;
    Ok((c.unwrap_or_default(), s))
}

/// The kiosk's session, or the page to show instead (pair it, the waiting code, why its
/// pairing ended, kiosks switched off).
pub(super) async fn session(
    req: &Request,
    state: &DeskState,
) -> Result<(String, KioskSession), Response> {
    let t = kiosk_words(req);
    let (c, standing) = standing(req, state)
        .await
        .map_err(|e| server_error(&t, &e))?;
    let screen = match standing {
        Standing::Ready(k) => return Ok((c, k)),
        Standing::Waiting(code) => Screen::Waiting(code, how(&t, state, "kiosk-waiting-how")),
        Standing::Unpaired => Screen::Pair(None, how(&t, state, "kiosk-pair-how")),
        Standing::Ended(why) => {
            Screen::Pair(Some(t.t(why.key())), how(&t, state, "kiosk-pair-how"))
        }
        Standing::Off => Screen::Off,
    };
    let status = match screen {
        Screen::Off => StatusCode::FORBIDDEN,
        _ => StatusCode::OK,
    };
    Err(show(t, String::new(), screen, status, None))
}

/// `POST /kiosk/pair`: starts pairing this kiosk (a code for staff to approve), at most a few
/// times a minute per address, and only from this server's own pages.
#[handler]
pub async fn pair(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let t = kiosk_words(req);
    if !web::same_origin(req) {
        let problem = Some(t.t("request-refused-origin"));
        return show(
            t,
            String::new(),
            Screen::Pair(None, how(&t, &state, "kiosk-pair-how")),
            StatusCode::FORBIDDEN,
            problem,
        );
    }
    if let Err(wait) = state.auth.flood.admit(&crate::web::remote(req)) {
        let secs = wait.as_secs().max(1) as i64;
        let problem = Some(t.with("oauth-throttled", &[("secs", Arg::Num(secs))]));
        let mut r = show(
            t,
            String::new(),
            Screen::Pair(None, how(&t, &state, "kiosk-pair-how")),
            StatusCode::TOO_MANY_REQUESTS,
            problem,
        );
        if let Ok(v) = secs.to_string().parse() {
            r.headers_mut().insert("retry-after", v);
        }
        return r;
    }
    match kiosk::begin(&state.svc, &state.auth.public).await {
        Ok(Some((c, _))) => {
            let mut r = web::redirect(StatusCode::SEE_OTHER, "/kiosk");
            let v = format!("{COOKIE}={c}; Path=/kiosk; HttpOnly; SameSite=Strict");
            if let Ok(v) = v.parse() {
                r.headers_mut().insert("set-cookie", v);
            }
            r
        }
        Ok(None) => show(t, String::new(), Screen::Off, StatusCode::FORBIDDEN, None),
        Err(e) => server_error(&t, &e),
    }
}

/// Back to the start: a whole-page redirect, or for htmx its `HX-Redirect`.
pub(super) fn to_start(req: &Request) -> Response {
    if req.headers().contains_key("hx-request") {
        Response::builder()
            .status(StatusCode::OK)
            .header("hx-redirect", "/kiosk")
            .finish()
    } else {
        web::redirect(StatusCode::SEE_OTHER, "/kiosk")
    }
}

/// `GET /kiosk/reset`: forgets the booking in progress and goes back to the start (also
/// after a few idle minutes: the next guest must not see this one's data).
#[handler]
pub async fn reset(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    if let Some(c) = cookie(req) {
        let _ = kiosk::forget(&state.svc, &c).await;
    }
    let mut r = to_start(req);
    kiosk_language::forget(&mut r);
    r
}

/// `GET /kiosk/poll` (htmx, every 5 seconds while the code shows): 204 while waiting, or
/// back to the start once approved (or the code expired).
#[handler]
pub async fn poll(req: &Request, state: Data<&Arc<DeskState>>) -> Response {
    let waiting = matches!(standing(req, &state).await, Ok((_, Standing::Waiting(_))));
    if waiting {
        Response::builder().status(StatusCode::NO_CONTENT).finish()
    } else {
        to_start(req)
    }
}
