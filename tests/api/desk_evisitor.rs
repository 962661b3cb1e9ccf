//! The check-in page of a Croatian hotel on eVisitor: it asks what eVisitor needs beyond
//! identity (the tourist-tax category, how the guest came, the service, and for a guest
//! resident outside the EU the border crossing and the day of entry) from eVisitor's own
//! lists, marks what is missing at its field in the receptionist's language, and checks the
//! guest in once it is there. Screenshots in en, it and hr; axe finds nothing.

use serde_json::json;

use crate::support::desk::{Browser, fields_of, speak, staff, value_of};
use crate::support::evisitor::{DAY, WAIT, hotel};
use crate::support::evisitor_sim::Sim;
use crate::support::{TestApp, submission_is};

/// John Miller from Boston, complete but for what eVisitor asks of a non-EU resident; his
/// booking for two nights from today, unassigned, and the one room of its type.
async fn john(app: &TestApp) -> (String, String) {
    let g = app
        .post(
            "/v1/guests",
            json!({"first_name": "John", "last_name": "Miller", "gender": "male",
            "birth_date": "1975-09-09", "nationality": "US",
            "birth_place": {"country": "US", "municipality": "Boston"},
            "address": {"city": "Boston", "country": "US"},
            "document": {"type": "passport", "number": "584930211", "issuing_country": "US"}}),
        )
        .await
        .expect(201)
        .id();
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("21", &rt).await;
    let departure = DAY.parse::<chrono::NaiveDate>().unwrap() + chrono::Days::new(2);
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "arrival": DAY,
            "departure": departure.to_string(), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    (r, room)
}

async fn post(b: &Browser, path: &str, form: &[(String, String)]) -> crate::support::Reply {
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    b.post(path, &pairs).await
}

#[tokio::test(flavor = "multi_thread")]
async fn the_check_in_page_asks_for_the_border_crossing_from_evisitors_list() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let (r, room) = john(&app).await;
    let password = staff(&app, "ana", "front_desk").await;
    let b = Browser::sign_in(&app, "ana", &password).await;
    let path = format!("/reservations/{r}/check-in");
    let page = b.get(&path).await;
    assert_eq!(page.status, 200, "{}", page.text);
    for shown in [
        "<select id=\"g0_border_crossing\"",
        "<option value=\"053\">053 · Zračna luka Zagreb</option>",
        "<select id=\"g0_tax_category\"",
        "<option value=\"14\">14 · Turist u ugostiteljskom objektu</option>",
        "<option value=\"\" selected>As the hotel sets it</option>",
        "Day they entered the EU",
    ] {
        assert!(page.text.contains(shown), "{shown}: {}", page.text);
    }
    assert!(
        !page.text.contains("Vlasnici kuće"),
        "only the facility's categories"
    );
    let csrf = Browser::csrf(&page);
    let shown = fields_of(&page.text, "g0_");
    let mut form: Vec<(String, String)> = vec![("csrf".into(), csrf), ("room_id".into(), room)];
    form.extend(shown);
    let refused = post(&b, &path, &form).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    for id in ["g0_border_crossing-error", "g0_entry_date-error"] {
        assert!(
            refused.text.contains(&format!("id=\"{id}\"")),
            "{id}: {}",
            refused.text
        );
    }
    assert!(!refused.text.contains("id=\"g0_document_number-error\""));

    let set = |form: &mut Vec<(String, String)>, k: &str, v: &str| {
        form.iter_mut().find(|(n, _)| n == k).unwrap().1 = v.to_string();
    };
    set(&mut form, "g0_border_crossing", "053");
    set(&mut form, "g0_entry_date", "20/11/2026");
    let done = post(&b, &path, &form).await;
    assert_eq!(done.status, 303, "{}", done.text);
    let res = app.get(&format!("/v1/reservations/{r}")).await.body;
    assert_eq!(res["status"], "checked_in");
    let sub = res["registration"]["submission_id"].as_str().unwrap();
    submission_is(&app, sub, "accepted", WAIT).await;
    let held = sim.held();
    let h = held.values().next().unwrap();
    assert_eq!(
        (
            h.body["BorderCrossing"].as_str(),
            h.body["PassageDate"].as_str()
        ),
        (Some("053"), Some("20261120"))
    );
    // The guest's own page keeps what was picked, from the same list.
    let guest = app.get(&format!("/v1/reservations/{r}")).await.body["primary_guest_id"]
        .as_str()
        .unwrap()
        .to_string();
    let edit = b.get(&format!("/guests/{guest}/edit")).await;
    assert_eq!(
        value_of(&edit.text, "border_crossing").as_deref(),
        Some("053")
    );
    assert_eq!(
        value_of(&edit.text, "entry_date").as_deref(),
        Some("20/11/2026")
    );
}

/// In a real browser, in each language: the refused check-in with the two fields marked.
#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_the_missing_border_crossing_is_marked_in_each_language() {
    use crate::support::browser::chrome;
    use fantoccini::Locator;
    let Some(c) = chrome(1366, 1600).await else {
        return;
    };
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let (r, room) = john(&app).await;
    let password = staff(&app, "ana", "front_desk").await;
    let b = Browser::sign_in(&app, "ana", &password).await;
    let base = format!("http://{}", app.addr);
    c.sign_in(&base, "ana", &password).await;
    for (lang, error) in [
        ("en", "The guest registration needs this."),
        ("it", "La registrazione dell'ospite richiede questo dato."),
        ("hr", "Prijava boravka traži ovaj podatak."),
    ] {
        speak(&b, lang).await;
        app.db()
            .write(move |tx| {
                let u = innkeep::store::clients::user_by_name(tx, "ana")?.unwrap();
                innkeep::store::staff::set_language(tx, &u.id, Some(lang))
            })
            .await
            .unwrap();
        c.client
            .goto(&format!("{base}/reservations/{r}/check-in"))
            .await
            .unwrap();
        c.wait_for(Locator::Id("g0_border_crossing")).await;
        let pick = c
            .client
            .find(Locator::Css(&format!("#room_id option[value='{room}']")))
            .await;
        if let Ok(o) = pick {
            o.click().await.unwrap();
        }
        c.click(Locator::Css("button.primary")).await;
        let marked = c.wait_for(Locator::Id("g0_border_crossing-error")).await;
        let said = marked.text().await.unwrap();
        assert_eq!(said, error, "{lang}");
        c.screenshot(&format!("desk-check-in-evisitor-{lang}"))
            .await;
        c.axe("the eVisitor check-in page").await;
    }
}

/// At the kiosk, a guest resident outside the EU picks the border crossing from eVisitor's
/// list; without it the kiosk marks the field, in Croatian for a guest who chose it.
#[tokio::test(flavor = "multi_thread")]
async fn at_the_kiosk_the_guest_picks_the_border_crossing() {
    use crate::support::desk::{approve, hidden, kiosk};
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let (r, _) = john(&app).await;
    let code = app.get(&format!("/v1/reservations/{r}")).await.body["code"]
        .as_str()
        .unwrap()
        .to_string();
    let (mut k, user_code) = kiosk(&app).await;
    let root = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    assert_eq!(approve(&a, &user_code).await.status, 303);
    k.language = Some("hr".into());
    let welcome = k.get("/kiosk").await;
    let csrf = hidden(&welcome.text, "csrf").unwrap();
    let found = k
        .post(
            "/kiosk/find",
            &[("csrf", &csrf), ("code", &code), ("last_name", "Miller")],
        )
        .await;
    assert_eq!(found.status, 303, "{}", found.text);
    let form = k.get("/kiosk").await;
    assert!(
        form.text.contains("<select id=\"g0_border_crossing\"")
            && form.text.contains("Granični prijelaz")
            && form.text.contains("053 · Zračna luka Zagreb"),
        "{}",
        form.text
    );
    let mut fields: Vec<(String, String)> =
        vec![("csrf".into(), csrf), ("consent".into(), "yes".into())];
    fields.extend(fields_of(&form.text, "g0_"));
    let refused = post_kiosk(&k, &fields).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"g0_border_crossing-error\""),
        "{}",
        refused.text
    );
    assert!(
        refused.text.contains("Prijava boravka traži ovaj podatak."),
        "{}",
        refused.text
    );
    for (name, value) in [
        ("g0_border_crossing", "071"),
        ("g0_entry_date", "21.11.2026."),
    ] {
        fields.iter_mut().find(|(n, _)| n == name).unwrap().1 = value.into();
    }
    let done = post_kiosk(&k, &fields).await;
    assert_eq!(done.status, 200, "{}", done.text);
    let stay = app.get(&format!("/v1/reservations/{r}")).await.body;
    assert_eq!(stay["status"], "checked_in");
    let sub = stay["registration"]["submission_id"].as_str().unwrap();
    submission_is(&app, sub, "accepted", WAIT).await;
    let held = sim.held();
    assert_eq!(
        held.values().next().unwrap().body["PassageDate"],
        "20261121"
    );
}

async fn post_kiosk(k: &Browser, form: &[(String, String)]) -> crate::support::Reply {
    let pairs: Vec<(&str, &str)> = form.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    k.post("/kiosk/check-in", &pairs).await
}

/// A check-in made by mistake is taken back from the reservation page, on its day, once
/// the receptionist ticks that it was a mistake; eVisitor's check-in is withdrawn.
#[tokio::test(flavor = "multi_thread")]
async fn a_mistaken_check_in_is_undone_from_the_reservation_page() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let g = app
        .post(
            "/v1/guests",
            crate::support::evisitor::german("Ida", "Lang", "female", "1991-01-01", "L1"),
        )
        .await
        .expect(201)
        .id();
    let rt = app.room_type("SGL", 1).await;
    let room = app.room("31", &rt).await;
    let departure = DAY.parse::<chrono::NaiveDate>().unwrap() + chrono::Days::new(1);
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
            "arrival": DAY, "departure": departure.to_string(), "adults": 1}),
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
    submission_is(&app, &sub, "accepted", WAIT).await;
    let password = staff(&app, "ana", "front_desk").await;
    let b = Browser::sign_in(&app, "ana", &password).await;
    let page = b.get(&format!("/reservations/{r}")).await;
    assert!(page.text.contains("Undo check-in"), "{}", page.text);
    let csrf = Browser::csrf(&page);
    let version = crate::support::desk::hidden(&page.text, "version").unwrap();
    let path = format!("/reservations/{r}/undo-check-in");
    let unticked = b
        .post(&path, &[("csrf", &csrf), ("version", &version)])
        .await;
    assert_eq!(unticked.status, 422);
    assert!(
        unticked.text.contains("this check-in was a mistake"),
        "{}",
        unticked.text
    );
    let done = b
        .post(
            &path,
            &[("csrf", &csrf), ("version", &version), ("confirm", "yes")],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let back = b
        .get(&format!("/reservations/{r}?done=check-in-undone"))
        .await;
    assert!(
        back.text.contains("The check-in is undone"),
        "{}",
        back.text
    );
    assert!(!back.text.contains("Undo check-in"));
    assert_eq!(
        app.get(&format!("/v1/reservations/{r}")).await.body["status"],
        "confirmed"
    );
    crate::support::eventually(WAIT, "the check-in withdrawn at eVisitor", || async {
        let held = sim.held();
        if held.values().all(|h| h.cancelled.is_some()) {
            Ok(())
        } else {
            Err(held.len())
        }
    })
    .await;
}

/// The compliance centre lists eVisitor's lists as fetched and fetches them again on
/// request; when eVisitor cannot be reached, it says so and keeps the ones loaded.
#[tokio::test(flavor = "multi_thread")]
async fn the_compliance_centre_fetches_evisitors_lists_on_request() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let root = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    let page = a.get("/admin/compliance").await;
    assert!(
        page.text.contains("Croatia, eVisitor")
            && page.text.contains("TTPaymentCategoryLookup2")
            && page.text.contains("fetched from hr-evisitor")
            && page.text.contains("Fetch the lists now"),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let done = a
        .post("/admin/compliance/tables/fetch", &[("csrf", &csrf)])
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    assert!(
        sim.calls()
            .iter()
            .filter(|c| *c == "GET CountryLookup")
            .count()
            >= 2
    );
    sim.set_down(true);
    let failed = a
        .post("/admin/compliance/tables/fetch", &[("csrf", &csrf)])
        .await;
    assert_eq!(failed.status, 409, "{}", failed.text);
    assert!(
        failed.text.contains("the ones loaded stay in use"),
        "{}",
        failed.text
    );
    assert!(failed.text.contains("CountryLookup"));
}
