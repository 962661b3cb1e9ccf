//! The front desk's pages under load: a staff member (an admin, who may open every page)
//! signed in through the real flow (`/login`, the authorization page, the callback), then
//! Today, the room board (every room over 14 nights), reservation, check-in and check-out
//! pages, the invoices and guests lists, housekeeping, the rates grid, the reports, the day
//! close and the administration's rooms, staff and compliance pages, at 1 and 8 clients
//! holding the session. [`timed`] measures any list of GETs that way.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::load::{self, Call, Client, Stats};
use crate::server::Server;

/// The `NAME=value` of a `Set-Cookie` named `name` on a response.
fn cookie<B>(r: &ureq::http::Response<B>, name: &str) -> Option<String> {
    r.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_string)
}

fn location<B>(r: &ureq::http::Response<B>) -> Result<String, String> {
    r.headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .ok_or_else(|| format!("no redirect (status {})", r.status()))
}

/// Every `<input type="hidden" name="…" value="…">` of a page (the values unescaped).
fn hidden_fields(html: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in html.split("<input type=\"hidden\" name=\"").skip(1) {
        let Some((name, rest)) = part.split_once('"') else {
            continue;
        };
        let Some(rest) = rest.strip_prefix(" value=\"") else {
            continue;
        };
        let Some((value, _)) = rest.split_once('"') else {
            continue;
        };
        let value = value
            .replace("&#34;", "\"")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&#x27;", "'")
            .replace("&#38;", "&")
            .replace("&amp;", "&");
        out.push((name.to_string(), value));
    }
    out
}

/// Adds an admin with the CLI and signs them in to the desk; the session cookie.
pub fn session(bin: &Path, dir: &Path, base: &str) -> Result<String, String> {
    let out = Command::new(bin)
        .args([
            "users",
            "create",
            "--username",
            "bench-desk",
            "--role",
            "admin",
            "--json",
        ])
        .env("INNKEEP_DATA_DIR", dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let user: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let password = user["password"].as_str().ok_or("no generated password")?;
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .new_agent();
    let err = |e: ureq::Error| e.to_string();
    let start = agent.get(format!("{base}/login")).call().map_err(err)?;
    let login = cookie(&start, "innkeep_login").ok_or("no login cookie")?;
    let mut page = agent
        .get(format!("{base}{}", location(&start)?))
        .call()
        .map_err(err)?;
    let csrf = cookie(&page, "innkeep_csrf").ok_or("no csrf cookie on the sign-in page")?;
    let html = page.body_mut().read_to_string().map_err(err)?;
    let mut form = hidden_fields(&html);
    form.push(("username".into(), "bench-desk".into()));
    form.push(("password".into(), password.into()));
    form.push(("decision".into(), "allow".into()));
    let signed = agent
        .post(format!("{base}/oauth/authorize"))
        .header("cookie", &csrf)
        .header("origin", base)
        .send_form(form.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(err)?;
    let callback = location(&signed)?;
    let done = agent
        .get(format!("{base}{callback}"))
        .header("cookie", &login)
        .call()
        .map_err(err)?;
    cookie(&done, "innkeep_desk").ok_or_else(|| format!("no session (status {})", done.status()))
}

/// The path of a page's `i`-th request.
pub type PathOf<'a> = Box<dyn Fn(usize) -> String + Send + Sync + 'a>;

/// One page's timings at 1 and at 8 clients.
pub struct PageTimes {
    /// The page.
    pub name: &'static str,
    /// One client.
    pub one: Stats,
    /// Eight clients.
    pub eight: Stats,
}

/// The ids the pages open: reservations over the history, arrivals of today not yet in,
/// stays in the house.
pub struct Ids<'a> {
    /// Reservations over the history (the reservation page).
    pub reservations: &'a [String],
    /// Today's arrivals not yet checked in (the check-in page).
    pub arriving: &'a [String],
    /// Stays in the house (the check-out page, with its bill).
    pub in_house: &'a [String],
}

/// Today, the board over the coming fortnight and over the fortnight from `busy` (the seeded
/// history books each room about three times over, so that board has thousands of bars in
/// hundreds of rows: a worst case), the board over a different fortnight each time (so the
/// table kept rendered while nothing changes never serves it: what a board costs when it
/// must be read and laid out), the reservation, check-in and check-out pages and the
/// lists, `secs` each at 1 and 8 clients.
pub fn measure(
    srv: &Server,
    session: &str,
    secs: f64,
    ids: &Ids,
    busy: chrono::NaiveDate,
) -> Vec<PageTimes> {
    let client = Client::with_cookie(&srv.base, session);
    let today = chrono::Utc::now().date_naive();
    let pick = |v: &[String], i: usize| v[i % v.len()].clone();
    let (reservations, arriving, in_house) = (ids.reservations, ids.arriving, ids.in_house);
    let fixed = |p: &'static str| -> PathOf { Box::new(move |_| p.to_string()) };
    let pages: Vec<(&'static str, PathOf)> = vec![
        ("Today", fixed("/")),
        (
            "room board: every room, the coming 14 nights",
            Box::new(move |_| format!("/board?from={today}")),
        ),
        (
            "room board: 14 nights of the (overbooked) history",
            Box::new(move |_| format!("/board?from={busy}")),
        ),
        (
            "room board: another fortnight of the history each time (never kept)",
            Box::new(move |i| {
                format!("/board?from={}", busy - chrono::Days::new((i % 365) as u64))
            }),
        ),
        (
            "reservation page",
            Box::new(move |i| format!("/reservations/{}", pick(reservations, i))),
        ),
        (
            "check-in page",
            Box::new(move |i| format!("/reservations/{}/check-in", pick(arriving, i))),
        ),
        (
            "check-out page, with the bill",
            Box::new(move |i| format!("/reservations/{}/check-out", pick(in_house, i))),
        ),
        ("invoices, the last 30 days", fixed("/invoices")),
        ("guests", fixed("/guests")),
        ("housekeeping, every room", fixed("/housekeeping")),
        ("rates grid", fixed("/admin/rates")),
        (
            "reports: occupancy, a month of the history",
            Box::new(move |_| format!("/reports?month={}", busy.format("%Y-%m"))),
        ),
        ("close the day: the plan", fixed("/day-close")),
        ("administration: rooms", fixed("/admin/rooms")),
        ("administration: staff", fixed("/admin/staff")),
        ("compliance centre", fixed("/admin/compliance")),
    ];
    timed(srv, &client, secs, pages)
}

/// Each of `gets` (name, path of the `i`-th request) for `secs` at 1 and at 8 clients.
pub fn timed(
    srv: &Server,
    client: &Client,
    secs: f64,
    gets: Vec<(&'static str, PathOf)>,
) -> Vec<PageTimes> {
    gets.into_iter()
        .map(|(name, path)| {
            let call = |i| Call {
                method: "GET",
                path: path(i),
                body: None,
                expect: 200,
            };
            PageTimes {
                name,
                one: load::charged(srv, || load::run(client, 1, secs, None, call)).stats(),
                eight: load::charged(srv, || load::run(client, 8, secs, None, call)).stats(),
            }
        })
        .collect()
}
