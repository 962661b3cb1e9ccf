//! An eVisitor simulator, built from the public Web API (`Javno.Web-API`, 2023; see
//! `docs/research/hr-evisitor.md`): the forms login that sets three cookies which must all
//! come back joined with `;` (a space after the `;` is refused with the firewall's HTML
//! page, as the FAQ warns), `CheckInTourist` (a second post with the same ID edits the
//! active check-in), `CheckOutTourist`, `CancelTouristCheckIn`, and the look-ups with their
//! `filters`. Every action is validated as the page lists it, strictly (required fields,
//! codes in the lists, the facility's tax categories, the non-EU border rule, the dates, the
//! duplicate tourist); refusals come as HTTP 400 `{UserMessage, SystemMessage}`. Faults on
//! demand: sessions that expire, a refusal sent as HTTP 200 with a message, an answer that
//! comes too late, and an outage.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::NaiveDate;
use poem::http::StatusCode;
use poem::web::{Data, Path, Query};
use poem::{EndpointExt, Request, Response, Route, handler, post};
use serde_json::{Value, json};

mod actions;
use actions::{cancel, check_in, check_out};

pub const USER: &str = "hotel-adriatic";
pub const PASSWORD: &str = "pw-Tajna$lozinka";
pub const FACILITY: &str = "0000022";
const FACILITY_ID: &str = "7c4a1f0e-0000-4000-8000-000000000022";
const WAF_PAGE: &str = "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 11000000000000000000</body></html>";

/// Countries: (alpha-2, alpha-3, EU member).
const COUNTRIES: [(&str, &str, bool); 8] = [
    ("HR", "HRV", true),
    ("DE", "DEU", true),
    ("AT", "AUT", true),
    ("IT", "ITA", true),
    ("SI", "SVN", true),
    ("US", "USA", false),
    ("GB", "GBR", false),
    ("CH", "CHE", false),
];
const DOCUMENTS: [(&str, &str); 6] = [
    ("002", "Osobna putovnica (strana)"),
    ("027", "Osobna iskaznica (strana)"),
    ("032", "Vozačka dozvola (strana)"),
    ("051", "Osobna iskaznica (domaća)"),
    ("103", "Vozačka dozvola (domaća)"),
    ("036", "Putovnica (domaća)"),
];
const SETTLEMENTS: [(&str, &str); 4] = [
    ("Zagreb", "10000"),
    ("Split", "21000"),
    ("Rovinj", "52210"),
    ("Dubrovnik", "20000"),
];
/// Tourist-tax categories; the facility may use the first three.
const CATEGORIES: [(&str, &str); 4] = [
    ("14", "Turist u ugostiteljskom objektu"),
    ("1", "Djeca do 12 godina"),
    ("2", "Djeca od 12 do 18 godina"),
    ("18", "Vlasnici kuće za odmor i članovi obitelji"),
];
const ARRIVALS: [(&str, &str); 2] = [("I", "Osobno"), ("A", "Agencija")];
const SERVICES: [&str; 2] = ["Noćenje", "Polupansion"];
const CROSSINGS: [(&str, &str); 2] = [("053", "Zračna luka Zagreb"), ("071", "Bregana")];

/// A fault for the next action (or login, for [`Fault::Outage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Every session ends before the call is processed.
    ExpireSessions,
    /// Refuse the call with HTTP 200 and a `UserMessage` (nothing stored).
    RefuseWith200,
    /// Process the call, then answer only after this long.
    Timeout(Duration),
}

/// One guest's check-in as the simulator holds it.
#[derive(Debug, Clone)]
pub struct Held {
    pub body: Value,
    pub edits: usize,
    pub checked_out: Option<(String, String)>,
    pub cancelled: Option<String>,
}

#[derive(Default)]
struct State {
    today: Mutex<Option<NaiveDate>>,
    sessions: Mutex<Vec<String>>,
    held: Mutex<HashMap<String, Held>>,
    calls: Mutex<Vec<String>>,
    faults: Mutex<VecDeque<Fault>>,
    down: Mutex<bool>,
}

pub struct Sim {
    pub addr: SocketAddr,
    state: Arc<State>,
    _server: crate::support::sim_server::Served,
}

impl Sim {
    pub async fn start() -> Sim {
        let state = Arc::new(State::default());
        let app = Route::new()
            .at(
                "/api/Resources/AspNetFormsAuth/Authentication/Login",
                post(login),
            )
            .at("/api/Rest/Htz/:name/", poem::get(browse).post(action))
            .data(state.clone());
        let server = crate::support::sim_server::serve(app).await;
        Sim {
            addr: server.addr,
            state,
            _server: server,
        }
    }

    /// The API root to configure.
    pub fn url(&self) -> String {
        format!("http://{}/api", self.addr)
    }

    pub fn set_today(&self, day: NaiveDate) {
        *self.state.today.lock().unwrap() = Some(day);
    }

    pub fn fault(&self, f: Fault) {
        self.state.faults.lock().unwrap().push_back(f);
    }

    /// While down, every call answers 503 and nothing is processed.
    pub fn set_down(&self, down: bool) {
        *self.state.down.lock().unwrap() = down;
    }

    /// Every check-in held, by ID.
    pub fn held(&self) -> HashMap<String, Held> {
        self.state.held.lock().unwrap().clone()
    }

    /// The operations called, in order (`Login`, `CheckInTourist`, `GET CountryLookup`, ...).
    pub fn calls(&self) -> Vec<String> {
        self.state.calls.lock().unwrap().clone()
    }
}

fn error(status: StatusCode, user: Option<&str>, system: &str) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json; charset=utf-8")
        .body(json!({"UserMessage": user, "SystemMessage": system}).to_string())
}

fn refuse(message: &str) -> Response {
    error(StatusCode::BAD_REQUEST, Some(message), "")
}

/// Field names case-insensitively, as the service reads them.
fn field<'a>(body: &'a Value, name: &str) -> Option<&'a Value> {
    body.as_object()?
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

fn text<'a>(body: &'a Value, name: &str) -> &'a str {
    field(body, name)
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
}

#[handler]
fn login(state: Data<&Arc<State>>, body: String) -> Response {
    let state = state.0;
    state.calls.lock().unwrap().push("Login".into());
    if *state.down.lock().unwrap() {
        return error(StatusCode::SERVICE_UNAVAILABLE, None, "Service unavailable");
    }
    let Ok(body) = serde_json::from_str::<Value>(&body) else {
        return error(
            StatusCode::BAD_REQUEST,
            None,
            "The request is not valid JSON.",
        );
    };
    if text(&body, "UserName").is_empty() {
        return refuse("Empty UserName is not allowed.");
    }
    if text(&body, "UserName") != USER || text(&body, "Password") != PASSWORD {
        return Response::builder()
            .content_type("application/json")
            .body("false");
    }
    let token = uuid::Uuid::now_v7().simple().to_string();
    state.sessions.lock().unwrap().push(token.clone());
    Response::builder()
        .content_type("application/json")
        .header("Set-Cookie", format!(".ASPXAUTH={token}; path=/; HttpOnly"))
        .header(
            "Set-Cookie",
            "BIGipServerAffinity=4211147274.20480.0000; path=/",
        )
        .header("Set-Cookie", "Language=hr; path=/")
        .body("true")
}

/// The answer refusing a request without a valid session, if it has none.
fn session(state: &State, req: &Request) -> Option<Response> {
    if *state.down.lock().unwrap() {
        return Some(error(
            StatusCode::SERVICE_UNAVAILABLE,
            None,
            "Service unavailable",
        ));
    }
    let cookie = req.header("Cookie").unwrap_or("");
    if cookie.contains("; ") {
        return Some(
            Response::builder()
                .status(StatusCode::OK)
                .content_type("text/html")
                .body(WAF_PAGE),
        );
    }
    let jar: HashMap<&str, &str> = cookie
        .split(';')
        .filter_map(|c| c.split_once('='))
        .collect();
    let complete = ["BIGipServerAffinity", "Language"]
        .iter()
        .all(|k| jar.contains_key(k));
    let known = jar
        .get(".ASPXAUTH")
        .is_some_and(|t| state.sessions.lock().unwrap().iter().any(|s| s == t));
    if !known || !complete {
        return Some(error(
            StatusCode::BAD_REQUEST,
            None,
            "User is not authenticated.",
        ));
    }
    None
}

#[derive(serde::Deserialize)]
struct Browse {
    filters: Option<String>,
}

#[handler]
fn browse(
    state: Data<&Arc<State>>,
    req: &Request,
    Path(name): Path<String>,
    Query(q): Query<Browse>,
) -> Response {
    let state = state.0;
    state.calls.lock().unwrap().push(format!("GET {name}"));
    if let Some(refused) = session(state, req) {
        return refused;
    }
    let filters: Vec<Value> = match q.filters.as_deref().map(serde_json::from_str) {
        None => Vec::new(),
        Some(Ok(Value::Array(f))) => f,
        Some(_) => return error(StatusCode::BAD_REQUEST, None, "Invalid filter format."),
    };
    let rows: Vec<Value> = match name.as_str() {
        "CountryLookup" => COUNTRIES.iter().map(|(a2, a3, eu)| json!({"ID": format!("c-{a2}"), "Active": true, "CodeTwoLetters": a2, "CodeThreeLetters": a3, "IsEUMember": eu, "NameNational": a3})).collect(),
        "DocumentTtypeLookup" => DOCUMENTS.iter().map(|(c, n)| json!({"ID": format!("d-{c}"), "Active": true, "Code": c, "CodeMI": c, "Name": n})).collect(),
        "SettlementLookup" => SETTLEMENTS.iter().map(|(n, z)| json!({"ID": format!("s-{z}"), "Active": true, "Name": n, "ZIPCode": z})).collect(),
        "TTPaymentCategoryLookup2" => CATEGORIES.iter().enumerate().map(|(i, (c, n))| json!({"ID": format!("t-{c}"), "FacilityID": if i < 3 { FACILITY_ID } else { "other" }, "Active": true, "Code": c, "Name": n})).collect(),
        "ArrivalOrganisationLookup" => ARRIVALS.iter().map(|(c, n)| json!({"ID": format!("a-{c}"), "Active": true, "CodeMI": c, "Name": n})).collect(),
        "OfferedServiceTypeLookup" => SERVICES.iter().map(|n| json!({"ID": format!("o-{n}"), "Active": true, "Name": n})).collect(),
        "BorderCrossingHRlookup" => CROSSINGS.iter().map(|(c, n)| json!({"ID": format!("b-{c}"), "Active": true, "CodeMI": c, "Name": n})).collect(),
        "FacilityBrowse" => vec![json!({"ID": FACILITY_ID, "Code": FACILITY, "Name": "Hotel Adriatic"})],
        other => return error(StatusCode::BAD_REQUEST, None, &format!("Resource Htz.{other} is not found.")),
    };
    let keep = |r: &Value| {
        filters.iter().all(|f| {
            let (p, v) = (text(f, "Property"), &f["Value"]);
            let want = v
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string());
            r.get(p).is_some_and(|have| {
                have.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| have.to_string())
                    == want
            })
        })
    };
    let records: Vec<Value> = rows.into_iter().filter(keep).collect();
    Response::builder()
        .content_type("application/json")
        .body(json!({"Records": records}).to_string())
}

#[handler]
async fn action(
    state: Data<&Arc<State>>,
    req: &Request,
    Path(name): Path<String>,
    body: String,
) -> Response {
    let state = state.0.clone();
    state.calls.lock().unwrap().push(name.clone());
    if let Some(refused) = session(&state, req) {
        return refused;
    }
    let fault = state.faults.lock().unwrap().pop_front();
    match fault {
        Some(Fault::ExpireSessions) => {
            state.sessions.lock().unwrap().clear();
            return error(StatusCode::BAD_REQUEST, None, "User is not authenticated.");
        }
        Some(Fault::RefuseWith200) => {
            return Response::builder()
                .status(StatusCode::OK)
                .content_type("application/json")
                .body(json!({"UserMessage": "Servis je privremeno nedostupan, pokušajte kasnije.", "SystemMessage": null}).to_string());
        }
        _ => {}
    }
    let Ok(body) = serde_json::from_str::<Value>(&body) else {
        return error(
            StatusCode::BAD_REQUEST,
            Some(
                "Operation could not be completed because the request sent to the server was not valid or not properly formatted.",
            ),
            "JSON",
        );
    };
    let today = state
        .today
        .lock()
        .unwrap()
        .unwrap_or_else(|| chrono::Local::now().date_naive());
    let answer = match name.as_str() {
        "CheckInTourist" => check_in(&state, &body, today),
        "CheckOutTourist" => check_out(&state, &body, today),
        "CancelTouristCheckIn" => cancel(&state, &body),
        other => Err(format!("Action Htz.{other} is not found.")),
    };
    if let Some(Fault::Timeout(d)) = fault {
        tokio::time::sleep(d).await;
    }
    match answer {
        Ok(()) => Response::builder().status(StatusCode::OK).body(""),
        Err(m) => refuse(&m),
    }
}
