//! The first-run page's compliance step (issue 29, item 12): an Italian hotel ticks Alloggiati
//! Web, a Croatian one uploads its CIS certificate. Broken answers are refused at their
//! fields with nothing written; good ones are written owner-only to the data directory's
//! `innkeep.toml` and are in force at once, without a restart: the next check-in is
//! registered at the Alloggiati simulator, the next sale fiscalised at the CIS simulator.

use std::path::Path;

use serde_json::json;

use crate::support::alloggiati_sim::{PASSWORD, Sim, USER, WS_KEY};
use crate::support::desk::Browser;
use crate::support::registration::{DAY, WAIT, day, italian, sample_tables};
use crate::support::reply::Reply;
use crate::support::{Spawn, TestApp, eventually};

/// The first-run form of a hotel in `country`, with the compliance answers `extra`.
fn form(code: &str, country: &str, extra: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    let mut f: Vec<(&'static str, String)> = [
        ("code", code),
        ("name", "Albergo Sole"),
        ("country", country),
        ("rt0_code", "DBL"),
        ("rt0_name", "Double room"),
        ("rt0_guests", "2"),
        ("rt0_rate", "95"),
        ("rt0_rooms", "101-102"),
        ("admin", "ada"),
        ("password", "sea view 2026"),
        ("password_again", "sea view 2026"),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_string()))
    .collect();
    f.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
    f
}

async fn post(b: &Browser, form: &[(&'static str, String)]) -> Reply {
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    b.post("/welcome", &pairs).await
}

/// A new installation whose own config file already names the simulators' addresses
/// (the page does not ask for endpoints: the real ones are the defaults).
async fn new_hotel(dir: &Path, own: &str) -> TestApp {
    std::fs::write(dir.join("innkeep.toml"), own).unwrap();
    Spawn::new().data_dir(dir.to_path_buf()).start().await
}

fn own_file(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("innkeep.toml")).unwrap()
}

#[cfg(unix)]
fn owner_only(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).unwrap().permissions().mode() & 0o077 == 0
}

#[cfg(not(unix))]
fn owner_only(_: &Path) -> bool {
    true
}

#[tokio::test(flavor = "multi_thread")]
async fn an_italian_hotel_sets_up_alloggiati_on_the_first_run_page_and_registers_at_once() {
    let sim = Sim::start(day()).await;
    let dir = tempfile::tempdir().unwrap();
    let before = format!("[compliance.registration]\nendpoint = \"{}\"\n", sim.url());
    let app = new_hotel(dir.path(), &before).await;
    let code = app.first_run_code.clone().unwrap();
    let b = Browser::new(&app);
    let page = b.get("/welcome").await;
    assert!(page.text.contains("enctype=\"multipart/form-data\""));
    assert!(page.text.contains("Register guests with Alloggiati Web"));
    assert!(
        page.text
            .contains("Fiscalise receipts with the Tax Administration (CIS)")
    );

    // Ticked without its password: refused there, the user name kept, the key not echoed,
    // and nothing written.
    let ticked = [
        ("alloggiati", "yes"),
        ("username", USER),
        ("ws_key", WS_KEY),
    ];
    let refused = post(&b, &form(&code, "Italy", &ticked)).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"password_alloggiati-error\""),
        "{}",
        refused.text
    );
    assert!(refused.text.contains(&format!("value=\"{USER}\"")));
    assert!(
        !refused.text.contains(WS_KEY),
        "a secret is never shown again"
    );
    assert!(
        refused
            .text
            .contains("name=\"alloggiati\" value=\"yes\" checked")
    );
    assert_eq!(own_file(dir.path()), before);

    let mut good = ticked.to_vec();
    good.push(("password_alloggiati", PASSWORD));
    let done = post(&b, &form(&code, "Italy", &good)).await;
    assert_eq!(done.status, 303, "{}", done.text);
    let own = own_file(dir.path());
    assert!(
        own.contains("scheme = \"it-alloggiati\"") && own.contains(&sim.url()),
        "{own}"
    );
    assert!(own.contains("dry_run = false"), "{own}");
    assert!(
        owner_only(&dir.path().join("innkeep.toml")),
        "it holds passwords"
    );
    let settings = app.get("/v1/settings").await.expect(200).body;
    assert_eq!(settings["compliance"]["registration"], "it-alloggiati");

    // In force without a restart: a check-in is registered at the simulator.
    sample_tables(&app).await;
    let mut head = italian("Mario", "Rossi", "male", "1980-05-15", "Roma", "RM");
    head["document"] = json!({"type": "id_card", "number": "CA 12345-AB", "issuing_place": "Roma"});
    let guest = app.post("/v1/guests", head).await.expect(201).id();
    let rt = app.all("/v1/room-types").await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt,
               "arrival": DAY, "departure": "2026-11-24", "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let room = app.all("/v1/rooms").await[0]["id"].clone();
    let answer = app
        .post(
            "/v1/check-in",
            json!({"reservation_id": r, "room_id": room}),
        )
        .await
        .expect(200);
    let id = answer.body["registration"]["submission_id"]
        .as_str()
        .unwrap()
        .to_string();
    eventually(WAIT, "the registration accepted", || async {
        let s = app
            .get(&format!("/v1/compliance/submissions/{id}"))
            .await
            .body;
        if s["status"] == "accepted" {
            Ok(())
        } else {
            Err(s["status"].clone())
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_croatian_hotel_uploads_its_certificate_and_fiscalises_at_once() {
    use crate::support::cis_sim;
    use crate::support::fiscal::{OIB, fiscal_is, sale};
    let sim = cis_sim::Sim::start();
    let dir = tempfile::tempdir().unwrap();
    let before = format!(
        "[compliance.fiscal]\nendpoint = \"{}\"\nca_certificate = \"{}\"\n",
        sim.url(),
        sim.pki.ca_pem.display()
    );
    let app = new_hotel(dir.path(), &before).await;
    let code = app.first_run_code.clone().unwrap();
    let b = Browser::new(&app);
    let p12 = std::fs::read(&sim.pki.p12).unwrap();
    let send = |extra: Vec<(&'static str, String)>| {
        let mut fields = form(&code, "Croatia", &[("cis", "yes"), ("premises", "POSL1")]);
        fields.extend(extra);
        let (b, p12) = (&b, p12.clone());
        async move {
            let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            b.post_file("/welcome", &pairs, ("certificate", "company.p12", &p12))
                .await
        }
    };

    // A mistyped OIB is caught by its check digit before the certificate is tried.
    let typo = send(vec![
        ("oib", "98765432107".into()),
        ("certificate_password", "x".into()),
    ])
    .await;
    assert_eq!(typo.status, 422, "{}", typo.text);
    assert!(typo.text.contains("id=\"oib-error\""), "{}", typo.text);
    assert!(!typo.text.contains("id=\"certificate_password-error\""));
    // The wrong password: the certificate cannot be opened; nothing is left behind.
    let wrong = send(vec![
        ("oib", OIB.into()),
        ("certificate_password", "not it".into()),
    ])
    .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(
        wrong.text.contains("id=\"certificate_password-error\""),
        "{}",
        wrong.text
    );
    assert!(
        wrong
            .text
            .contains("cannot open the certificate with this password")
    );
    assert_eq!(own_file(dir.path()), before);
    assert!(!dir.path().join("fiscal-certificate.p12").exists());

    let password = cis_sim::pki::PASSWORD.to_string();
    let done = send(vec![
        ("oib", OIB.into()),
        ("certificate_password", password),
    ])
    .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let kept = dir.path().join("fiscal-certificate.p12");
    assert_eq!(std::fs::read(&kept).unwrap(), p12);
    assert!(owner_only(&kept));
    let own = own_file(dir.path());
    assert!(own.contains("scheme = \"hr-cis\"") && own.contains("operator_oib = \"98765432106\""));

    // In force without a restart: a card sale is fiscalised by the simulator (once the
    // seller's particulars, which a Croatian invoice needs, are set).
    app.put("/v1/settings", crate::support::in_country("HR"))
        .await
        .expect(200);
    app.clock().set_now("2026-11-22T09:30:00Z".parse().unwrap());
    let invoice = sale(&app, "card").await;
    let id = invoice["id"].as_str().unwrap();
    let fiscalised = fiscal_is(&app, id, "fiscalized").await;
    assert!(
        fiscalised["fiscal"]["authority_reference"].is_string(),
        "{fiscalised}"
    );
    assert_eq!(sim.violations(), Vec::<String>::new());
}

/// A Croatian hotel ticks eVisitor: one registration scheme only, its facility and user
/// asked; then in force at once, its look-ups fetched, and the first check-in registered.
#[tokio::test(flavor = "multi_thread")]
async fn a_croatian_hotel_ticks_evisitor_and_registers_its_first_guest_at_once() {
    use crate::support::evisitor_sim::{
        FACILITY, PASSWORD as EV_PASSWORD, Sim as Evisitor, USER as EV_USER,
    };
    let sim = Evisitor::start().await;
    sim.set_today(day());
    let dir = tempfile::tempdir().unwrap();
    let before = format!("[compliance.registration]\nendpoint = \"{}\"\n", sim.url());
    let app = new_hotel(dir.path(), &before).await;
    let code = app.first_run_code.clone().unwrap();
    let b = Browser::new(&app);
    let both = form(
        &code,
        "Croatia",
        &[
            ("evisitor", "yes"),
            ("alloggiati", "yes"),
            ("facility", FACILITY),
            ("evisitor_username", EV_USER),
            ("evisitor_password", EV_PASSWORD),
            ("username", "u"),
            ("password_alloggiati", "p"),
            ("ws_key", "k"),
        ],
    );
    let refused = post(&b, &both).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"facility-error\"")
            && refused.text.contains("Choose one guest registration"),
        "{}",
        refused.text
    );
    let missing = post(
        &b,
        &form(
            &code,
            "Croatia",
            &[("evisitor", "yes"), ("evisitor_username", EV_USER)],
        ),
    )
    .await;
    assert_eq!(missing.status, 422);
    assert!(
        missing.text.contains("id=\"facility-error\"")
            && missing.text.contains("id=\"evisitor_password-error\""),
        "{}",
        missing.text
    );
    assert!(!missing.text.contains(EV_PASSWORD));
    assert_eq!(own_file(dir.path()), before, "nothing written");

    let done = post(
        &b,
        &form(
            &code,
            "Croatia",
            &[
                ("evisitor", "yes"),
                ("facility", FACILITY),
                ("evisitor_username", EV_USER),
                ("evisitor_password", EV_PASSWORD),
            ],
        ),
    )
    .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let own = own_file(dir.path());
    assert!(
        own.contains("scheme = \"hr-evisitor\"")
            && own.contains(&format!("facility = \"{FACILITY}\"")),
        "{own}"
    );
    assert!(
        own.contains(&sim.url()),
        "the endpoint the file named stays: {own}"
    );
    assert!(owner_only(&dir.path().join("innkeep.toml")));

    // In force at once: the look-ups are fetched and the first guest is checked in.
    crate::support::evisitor::tables_fetched(&app).await;
    let mut settings = crate::support::in_country("HR");
    settings["time_zone"] = json!("Europe/Zagreb");
    app.put("/v1/settings", settings).await.expect(200);
    app.clock()
        .set_now(format!("{DAY}T09:30:00Z").parse().unwrap());
    let g = app
        .post(
            "/v1/guests",
            crate::support::evisitor::german("Jan", "Berg", "male", "1979-03-03", "B7"),
        )
        .await
        .expect(201)
        .id();
    let rt = app.room_type("SGL", 1).await;
    let room = app.room("9", &rt).await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
        "arrival": DAY, "departure": (day() + chrono::Days::new(1)).to_string(), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let sub = app
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200)
        .body["registration"]["submission_id"]
        .as_str()
        .unwrap()
        .to_string();
    crate::support::submission_is(&app, &sub, "accepted", WAIT).await;
    assert_eq!(sim.held().len(), 1);
}

/// In a real browser, in Italian and Croatian: CIS ticked shows its settings in the page's
/// language, and axe finds nothing.
#[tokio::test(flavor = "multi_thread")]
async fn the_compliance_step_in_italian_and_croatian() {
    use crate::support::browser::chrome_speaking;
    use fantoccini::Locator;
    for (lang, legend) in [
        ("it", "Fiscalizzazione (Croazia)"),
        ("hr", "Fiskalizacija računa (Hrvatska)"),
    ] {
        let Some(c) = chrome_speaking(1280, 1000, lang).await else {
            return;
        };
        let app = crate::support::spawn_app().await;
        c.client
            .goto(&format!("http://{}/welcome", app.addr))
            .await
            .unwrap();
        c.wait_for(Locator::Id("cis")).await;
        c.click(Locator::Id("cis")).await;
        let oib = c.client.find(Locator::Id("oib")).await.unwrap();
        assert!(oib.is_displayed().await.unwrap());
        let source = c.client.source().await.unwrap();
        assert!(source.contains(legend), "{lang}: {source}");
        c.client
            .execute(
                "document.getElementById('alloggiati').scrollIntoView()",
                vec![],
            )
            .await
            .unwrap();
        c.screenshot(&format!("desk-welcome-compliance-{lang}"))
            .await;
        c.axe(&format!("the first-run page's compliance step ({lang})"))
            .await;
    }
}
