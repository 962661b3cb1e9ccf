//! Guest registration with Alloggiati Web, end to end against the protocol simulator:
//! golden records, the whole path to `accepted`, the check-in gate, and every fault.

use std::time::Duration;

use innkeep::compliance::alloggiati::record::Record;
use serde_json::{Value, json};

use crate::support::alloggiati_sim::{Fault, PASSWORD, Sim, USER, WS_KEY};
use crate::support::receiver::Receiver;
use crate::support::registration::{DAY, WAIT, day, hotel, italian};
use crate::support::{TestApp, spawn_app};

async fn guest(app: &TestApp, body: Value) -> String {
    app.post("/v1/guests", body).await.expect(201).id()
}

/// Books and checks in a party; returns (reservation id, check-in answer).
async fn check_in(
    app: &TestApp,
    guests: &[String],
    nights: u64,
) -> (String, crate::support::Reply) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let rt = app.room_type(&format!("T{n}"), 4).await;
    let room = app.room(&format!("R{n}"), &rt).await;
    let departure = day() + chrono::Days::new(nights);
    let r = app
        .post("/v1/reservations", json!({"primary_guest_id": guests[0], "guest_ids": guests[1..], "room_type_id": rt,
               "room_id": room, "arrival": DAY, "departure": departure.to_string(), "adults": guests.len()}))
        .await
        .expect(201)
        .id();
    let answer = app.post("/v1/check-in", json!({"reservation_id": r})).await;
    (r, answer)
}

async fn submission_of(app: &TestApp, guests: &[String], nights: u64) -> (String, String) {
    let (r, answer) = check_in(app, guests, nights).await;
    let answer = answer.expect(200);
    assert_eq!(answer.body["registration"]["status"], "queued");
    (
        r,
        answer.body["registration"]["submission_id"]
            .as_str()
            .unwrap()
            .to_string(),
    )
}

async fn status_is(app: &TestApp, id: &str, want: &str) -> Value {
    crate::support::submission_is(app, id, want, WAIT).await
}

async fn family(app: &TestApp) -> Vec<String> {
    let mut head = italian("Mario", "Rossi", "male", "1980-05-15", "Roma", "RM");
    head["document"] = json!({"type": "id_card", "number": "CA 12345-AB", "issuing_place": "Roma"});
    vec![
        guest(app, head).await,
        guest(
            app,
            italian("Giulia", "Rossi", "female", "1982-03-02", "Milano", "MI"),
        )
        .await,
        guest(
            app,
            italian("Niccolò", "Rossi", "male", "2015-07-30", "Firenze", ""),
        )
        .await,
    ]
}

const GOLDEN: [&str; 6] = [
    "1722/11/202603ROSSI                                             MARIO                         115/05/1980412058091RM100000100100000100IDENTCA12345AB           412058091",
    "1922/11/202603ROSSI                                             GIULIA                        202/03/1982403015146MI100000100100000100                                  ",
    "1922/11/202603ROSSI                                             NICCOLO                       130/07/2015409048017FI100000100100000100                                  ",
    "1622/11/202601MULLER LUDENSCHEIDT                               ZOE                           231/01/1990           100000216100000216PASORC01X00T47           100000216",
    "1822/11/202602D'ANGELO                                          ANNA                          211/11/1975403097042LC100000100100000215PATENU1X2Y3              100000215",
    "2022/11/202602VERDI                                             LUCA                          101/02/1977           100000219100000219                                  ",
];

#[tokio::test(flavor = "multi_thread")]
async fn golden_records_go_all_the_way_to_accepted() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let hook = Receiver::start().await;
    app.post(
        "/v1/webhooks",
        json!({"url": hook.url("/hook"), "events": ["registration.*"]}),
    )
    .await
    .expect(201);
    let zoe = guest(&app, json!({"first_name": "Zoë", "last_name": "Müller-Lüdenscheidt", "gender": "female",
        "birth_date": "1990-01-31", "nationality": "DE", "birth_place": {"country": "DE", "municipality": "München"},
        "document": {"type": "passport", "number": "C01X00T47", "issuing_country": "DE"}})).await;
    let mut anna = italian("Anna", "D’Angelo", "female", "1975-11-11", "Lecco", "");
    anna["nationality"] = json!("FR");
    anna["document"] =
        json!({"type": "driving_license", "number": "u1x2y3", "issuing_country": "FR"});
    let luca = json!({"first_name": "Luca", "last_name": "Verdi", "gender": "male", "birth_date": "1977-02-01",
        "nationality": "GB", "birth_place": {"country": "GB"}});
    let group = vec![guest(&app, anna).await, guest(&app, luca).await];
    let parties = [(family(&app).await, 3), (vec![zoe], 1), (group, 2)];
    let mut subs = Vec::new();
    for (guests, nights) in &parties {
        subs.push(submission_of(&app, guests, *nights).await);
    }
    let mut lines = Vec::new();
    for (r, id) in &subs {
        let s = status_is(&app, id, "accepted").await;
        assert_eq!(
            s["authority_reference"],
            "Alloggiati Web, ricevuta del 22/11/2026"
        );
        assert_eq!(s["overdue"], false);
        lines.extend(s["rows"].as_array().unwrap().iter().map(|row| {
            assert_eq!(row["status"], "accepted");
            row["line"].as_str().unwrap().to_string()
        }));
        let res = app.get(&format!("/v1/reservations/{r}")).await.body;
        assert_eq!(
            res["registration"],
            json!({"status": "accepted", "submission_id": id})
        );
        let text = s.to_string();
        for secret in [PASSWORD, WS_KEY, "tok-"] {
            assert!(!text.contains(secret), "{secret} leaked into {text}");
        }
    }
    assert_eq!(lines, GOLDEN, "the exact bytes");
    let mut stored = sim.stored();
    stored.sort_by_key(|l| GOLDEN.iter().position(|g| g == l));
    assert_eq!(
        stored, GOLDEN,
        "each row stored once (parties run concurrently)"
    );
    let calls = sim.calls();
    assert_eq!(
        calls.iter().filter(|c| *c == "GenerateToken").count(),
        1,
        "the token is reused: {calls:?}"
    );
    let parsed = Record::parse(GOLDEN[3]).unwrap();
    assert_eq!(
        (
            parsed.guest_type,
            parsed.surname.as_str(),
            parsed.given_name.as_str()
        ),
        (16, "MULLER LUDENSCHEIDT", "ZOE")
    );
    assert_eq!(
        (
            parsed.birth_municipality.as_str(),
            parsed.birth_state.as_str(),
            parsed.nights
        ),
        ("", "100000216", 1)
    );
    for line in GOLDEN {
        assert_eq!(
            Record::parse(line).unwrap().line(),
            line,
            "parses back to the same bytes"
        );
    }
    let hits = hook.wait_for(3, WAIT).await;
    assert!(
        hits.iter()
            .all(|h| h.json()["type"] == "registration.accepted")
    );
    // Webhook bodies say who acted: the queue recorded the authority's answer.
    assert!(hits.iter().all(|h| h.json()["actor"]["type"] == "system"));
    let events = Value::Array(app.all_events().await).to_string();
    assert!(!events.contains(PASSWORD) && !events.contains(WS_KEY));
    let settings = app.get("/v1/settings").await.expect(200).body;
    assert_eq!(
        settings["compliance"],
        json!({"registration": "it-alloggiati", "fiscal": "none"})
    );
    assert!(!settings.to_string().contains(PASSWORD));
}

#[tokio::test(flavor = "multi_thread")]
async fn missing_fields_are_listed_and_a_disabled_scheme_queues_nothing() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let bare = guest(&app, json!({"first_name": "Bob", "last_name": "Li"})).await;
    let mut member = italian("Eva", "Li", "other", "1990-01-01", "Atlantide", "");
    member["nationality"] = json!("IT");
    let member = guest(&app, member).await;
    let (r, answer) = check_in(&app, &[bare.clone(), member.clone()], 2).await;
    let p = answer.problem(422, "registration_incomplete");
    let fields: Vec<String> = p.fields().into_iter().map(|(f, _)| f).collect();
    assert_eq!(
        fields,
        [
            "guest_ids[0].gender",
            "guest_ids[0].birth_date",
            "guest_ids[0].birth_place.country",
            "guest_ids[0].nationality",
            "guest_ids[0].document",
            "guest_ids[1].gender",
            "guest_ids[1].birth_place.municipality",
        ]
    );
    assert_eq!(p.body["guests"][1]["guest_id"], member.as_str());
    assert_eq!(
        app.get(&format!("/v1/reservations/{r}")).await.body["status"],
        "confirmed"
    );
    assert!(app.all("/v1/compliance/submissions").await.is_empty());

    let plain = spawn_app().await;
    let g = plain.guest("Anna", "Bianchi").await;
    let rt = plain.room_type("DBL", 2).await;
    let room = plain.room("1", &rt).await;
    let today = chrono::Utc::now().date_naive();
    let r = plain
        .post("/v1/reservations", json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
               "arrival": today.to_string(), "departure": (today + chrono::Days::new(1)).to_string(), "adults": 1}))
        .await
        .expect(201)
        .id();
    let ok = plain
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    assert_eq!(ok.body["registration"], Value::Null);
    assert!(plain.all("/v1/compliance/submissions").await.is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_row_is_fixed_and_only_it_is_sent_again() {
    let sim = Sim::start(day()).await;
    sim.reject_surname("ROSSO");
    let app = hotel(&sim).await;
    let mut guests = family(&app).await;
    let mut typo = italian("Pia", "Rosso", "female", "2012-01-01", "Napoli", "NA");
    typo["nationality"] = json!("IT");
    guests.push(guest(&app, typo).await);
    let (_, id) = submission_of(&app, &guests, 3).await;
    let s = status_is(&app, &id, "rejected").await;
    let statuses: Vec<&str> = s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["accepted", "accepted", "accepted", "rejected"]);
    assert!(
        s["rows"][3]["error"].as_str().unwrap().contains("12"),
        "{}",
        s["rows"][3]
    );
    assert!(s["last_error"].as_str().unwrap().contains(&guests[3]));
    assert_eq!(sim.stored().len(), 3);
    app.put(
        &format!("/v1/guests/{}", guests[3]),
        json!({"last_name": "Rossi"}),
    )
    .await
    .expect(200);
    app.post(&format!("/v1/compliance/submissions/{id}/retry"), json!({}))
        .await
        .expect(202);
    let s = status_is(&app, &id, "accepted").await;
    let stored = sim.stored();
    assert_eq!(
        stored.len(),
        5,
        "the refused row went again, after its head"
    );
    assert!(
        stored[3].starts_with("17") && stored[3].contains("MARIO"),
        "{}",
        stored[3]
    );
    assert!(
        stored[4].starts_with("19") && stored[4].contains("PIA"),
        "{}",
        stored[4]
    );
    let log = s["exchanges"].to_string();
    assert!(
        log.contains("rebuilt from the guests' current data") && log.contains("head of the party"),
        "{log}"
    );
    let types: Vec<Value> = app
        .all_events()
        .await
        .into_iter()
        .map(|e| e["type"].clone())
        .collect();
    assert!(
        types.contains(&json!("registration.rejected"))
            && types.contains(&json!("registration.accepted"))
    );
    app.post(&format!("/v1/compliance/submissions/{id}/retry"), json!({}))
        .await
        .problem(409, "submission_not_retryable");
}

#[tokio::test(flavor = "multi_thread")]
async fn faults_that_stored_nothing_are_retried_and_an_expired_token_is_renewed() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    sim.inject("Send", Fault::Http500);
    let (_, first) = submission_of(&app, &family(&app).await[..1], 2).await;
    let s = status_is(&app, &first, "retrying").await;
    assert!(s["last_error"].as_str().unwrap().contains("HTTP 500"));
    assert!(s["next_attempt_at"].is_string());
    app.post(
        &format!("/v1/compliance/submissions/{first}/retry"),
        json!({}),
    )
    .await
    .expect(202);
    status_is(&app, &first, "accepted").await;

    sim.inject("Send", Fault::ExpireTokens);
    let zoe = guest(&app, json!({"first_name": "Zoe", "last_name": "Weber", "gender": "female", "birth_date": "1990-01-31",
        "nationality": "CH", "birth_place": {"country": "CH"}, "document": {"type": "passport", "number": "X1", "issuing_country": "CH"}})).await;
    let (_, second) = submission_of(&app, &[zoe], 1).await;
    let s = status_is(&app, &second, "accepted").await;
    let ops = crate::support::operations(&s);
    assert_eq!(
        ops,
        ["Send", "note", "GenerateToken", "Send"],
        "refused for the token, renewed, sent again"
    );
    assert_eq!(sim.stored().len(), 2, "each row stored once");

    sim.inject("Send", Fault::ExpireTokens);
    sim.inject("GenerateToken", Fault::Soap);
    let mut g = italian("Ugo", "Neri", "male", "1970-01-01", "Bari", "BA");
    g["document"] = json!({"type": "passport", "number": "Y2", "issuing_place": "Bari"});
    let (_, third) = submission_of(&app, &[guest(&app, g).await], 2).await;
    let s = status_is(&app, &third, "retrying").await;
    assert!(
        s["last_error"].as_str().unwrap().contains("SOAP fault"),
        "{}",
        s["last_error"]
    );
    app.post(
        &format!("/v1/compliance/submissions/{third}/retry"),
        json!({}),
    )
    .await
    .expect(202);
    status_is(&app, &third, "accepted").await;
    assert_eq!(sim.stored().len(), 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_answer_lost_after_recording_is_never_resent_blindly() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    for fault in [
        Fault::ResetAfterRecording,
        Fault::Timeout(Duration::from_secs(3)),
    ] {
        let before = sim.stored().len();
        sim.inject("Send", fault);
        let mut g = italian("Ada", "Galli", "female", "1960-06-06", "Venezia", "VE");
        g["document"] =
            json!({"type": "id_card", "number": format!("Z{before}"), "issuing_place": "Venezia"});
        let (_, id) = submission_of(&app, &[guest(&app, g).await], 2).await;
        let s = status_is(&app, &id, "manual_required").await;
        assert!(
            s["last_error"].as_str().unwrap().contains("no answer"),
            "{fault:?}: {}",
            s["last_error"]
        );
        assert_eq!(
            sim.stored().len(),
            before + 1,
            "{fault:?}: the authority did record it"
        );
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert_eq!(
            sim.stored().len(),
            before + 1,
            "{fault:?}: nothing was resent on its own"
        );
        let listed = app
            .all("/v1/compliance/submissions?status=manual_required")
            .await;
        assert!(listed.iter().any(|s| s["id"] == id.as_str()));
        app.post(&format!("/v1/compliance/submissions/{id}/retry"), json!({}))
            .await
            .expect(202);
        let s = status_is(&app, &id, "accepted").await;
        assert_eq!(
            sim.stored().len(),
            before + 2,
            "{fault:?}: sent again because an operator asked"
        );
        assert!(
            s["exchanges"]
                .to_string()
                .contains("requested by an operator")
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn rows_past_the_window_go_to_manual_and_the_day_can_be_exported() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    // innkeep holds a token from fetching the code tables on start: the send finds it
    // expired, and asking for a new one fails.
    sim.inject("Send", Fault::ExpireTokens);
    sim.inject("GenerateToken", Fault::Http500);
    let (_, id) = submission_of(&app, &family(&app).await, 3).await;
    let s = status_is(&app, &id, "retrying").await;
    let due = s["due_at"].as_str().unwrap();
    assert!(
        due.starts_with("2026-11-23T10:00:0"),
        "24 hours for a stay of three nights: {due}"
    );
    let export = app
        .get(&format!("/v1/compliance/registration/export?date={DAY}"))
        .await
        .expect(200);
    assert_eq!(export.text, GOLDEN[..3].join("\r\n"));
    app.clock().set_now("2026-11-24T09:00:00Z".parse().unwrap());
    sim.set_today("2026-11-24".parse().unwrap());
    let s = app
        .get(&format!("/v1/compliance/submissions/{id}"))
        .await
        .body;
    assert_eq!(s["overdue"], true);
    let metrics = app.metrics().await;
    assert!(
        metrics.contains("innkeep_compliance_overdue{kind=\"guest_registration\"} 1"),
        "{metrics}"
    );
    app.post(&format!("/v1/compliance/submissions/{id}/retry"), json!({}))
        .await
        .expect(202);
    let s = status_is(&app, &id, "manual_required").await;
    assert!(
        s["last_error"]
            .as_str()
            .unwrap()
            .contains("today or yesterday")
    );
    assert!(sim.stored().is_empty());
    let empty = app
        .get("/v1/compliance/registration/export?date=2026-11-21")
        .await
        .expect(200);
    assert_eq!(empty.text, "");
    app.get("/v1/compliance/registration/export?date=someday")
        .await
        .problem(400, "bad_request");
}

#[test]
fn the_cli_imports_tables_checks_the_config_and_lists_submissions() {
    use crate::support::binary::innkeep;
    let dir = tempfile::tempdir().unwrap();
    let table = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/compliance/it-alloggiati/Luoghi.sample.csv"
    );
    let out = crate::support::binary::run_ok(
        dir.path(),
        &["compliance", "import-table", "luoghi", table],
    );
    assert!(out.contains("20 rows loaded into Luoghi"), "{out}");
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "Codice;Descrizione;Provincia;DataFineVal\n12;ROMA;RM;\n",
    )
    .unwrap();
    let out = innkeep(dir.path())
        .args(["compliance", "import-table", "Luoghi"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 2"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = innkeep(dir.path())
        .args(["compliance", "tables"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("it-alloggiati Luoghi: 20 rows"));
    let env = [
        ("INNKEEP_COMPLIANCE__REGISTRATION__SCHEME", "it-alloggiati"),
        ("INNKEEP_COMPLIANCE__REGISTRATION__USERNAME", USER),
        ("INNKEEP_COMPLIANCE__REGISTRATION__PASSWORD", PASSWORD),
        ("INNKEEP_COMPLIANCE__REGISTRATION__WS_KEY", WS_KEY),
    ];
    let out = innkeep(dir.path())
        .args(["config", "check", "--json"])
        .envs(env)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("it-alloggiati"),
        "{text}"
    );
    assert!(!text.contains(PASSWORD) && !text.contains(WS_KEY), "{text}");
    let out = innkeep(dir.path())
        .args(["config", "check"])
        .envs(env[..2].iter().copied())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("compliance.registration.password"));
    let out = innkeep(dir.path())
        .args(["submissions", "list"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "No submissions."
    );
    let out = innkeep(dir.path())
        .args(["submissions", "retry", "sub_nope"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

/// Alloggiati Web cannot withdraw a registration: a check-in is not undone there.
#[tokio::test(flavor = "multi_thread")]
async fn a_check_in_registered_with_the_police_cannot_be_undone() {
    let sim = Sim::start(day()).await;
    let app = hotel(&sim).await;
    let (r, _) = submission_of(&app, &family(&app).await[..1], 2).await;
    app.post(&format!("/v1/reservations/{r}/undo-check-in"), json!({}))
        .await
        .problem(409, "undo_not_possible");
    assert_eq!(
        app.get(&format!("/v1/reservations/{r}")).await.body["status"],
        "checked_in"
    );
}
