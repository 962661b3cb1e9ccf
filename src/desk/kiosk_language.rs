//! The kiosk's language. A guest at the kiosk may not read the hotel's language: the first
//! screen offers every language the desk speaks, each written in itself, and the choice holds
//! for this guest's visit only (a session cookie that the start-again link and the idle reset
//! clear, so the next guest starts in the device's own language).

use poem::http::StatusCode;
use poem::web::Path;
use poem::{Request, Response, handler};

use super::{web, words};
use crate::i18n::{Lang, T};

/// The cookie holding the guest's choice.
const COOKIE: &str = "innkeep_kiosk_lang";

/// The words for this visit: the guest's choice, else the kiosk browser's language.
pub fn kiosk_words(req: &Request) -> T {
    match web::cookie(req, COOKIE).as_deref().and_then(Lang::parse) {
        Some(lang) => T::new(lang),
        None => words(req),
    }
}

/// The languages to offer on `t`'s page: each one's tag and own name, and whether it is the
/// one shown.
pub fn choices(t: &T) -> Vec<(&'static str, &'static str, bool)> {
    Lang::ALL
        .into_iter()
        .map(|l| (l.tag(), l.own_name(), l == t.lang()))
        .collect()
}

/// Forgets the guest's choice on `r` (the next guest starts afresh).
pub fn forget(r: &mut Response) {
    if let Ok(v) = format!("{COOKIE}=; Path=/kiosk; HttpOnly; SameSite=Strict; Max-Age=0").parse() {
        r.headers_mut().append("set-cookie", v);
    }
}

/// `GET /kiosk/language/{tag}`: shows the kiosk in that language for this visit (a link, so
/// it works without JavaScript; it changes nothing but the words).
#[handler]
pub fn choose(Path(tag): Path<String>) -> Response {
    let mut r = web::redirect(StatusCode::SEE_OTHER, "/kiosk");
    if let Some(lang) = Lang::parse(&tag)
        && let Ok(v) = format!(
            "{COOKIE}={}; Path=/kiosk; HttpOnly; SameSite=Strict",
            lang.tag()
        )
        .parse()
    {
        r.headers_mut().append("set-cookie", v);
    }
    r
}
