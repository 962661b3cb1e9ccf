//! Croatian e-invoices (eRačun): a stay billed to a company becomes a UBL e-invoice under
//! CIUS-HR that the independent validator accepts, sent through the moj-eRačun simulator,
//! delivered and fiscalized; its credit note refers to it; a refusal, a lost answer and the
//! monthly payment report are handled; a company paying at the desk by card gets a CIS
//! receipt instead.

use serde_json::{Value, json};

use crate::support::eracun::{BUYER_OIB, company, einvoice_is, hotel, hotel_with, stay_billed};
use crate::support::fiscal::later;
use crate::support::mer_sim::{Checked, Fault, Sim};
use crate::support::submission_is;

/// The documents the simulator took were all accepted by the publishers' rules (or, where
/// the rules are not provisioned, taken unchecked, which the simulator says on stderr).
fn all_valid(sim: &Sim) {
    for d in sim.docs() {
        assert!(
            matches!(d.checked, Checked::Valid | Checked::Unchecked),
            "{}: {:?}\n{}",
            d.number,
            d.checked,
            d.xml
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stay_billed_to_a_company_is_delivered_fiscalized_and_its_payment_reported_once() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let inv = &out["invoice"];
    let id = inv["id"].as_str().unwrap();
    assert_eq!(inv["fiscal"]["scheme"], "hr-eracun", "{inv}");
    assert_eq!(inv["fiscal"]["status"], "pending");
    assert_eq!(inv["fiscal"]["einvoice"]["intermediary"], "moj-eracun");
    let kinds: Vec<&str> = inv["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["accommodation", "city_tax"]);
    assert_eq!(inv["lines"][0]["kpd_code"], "55.10.00");

    let xml = app.get(&format!("/v1/invoices/{id}/einvoice.xml")).await;
    assert_eq!(xml.status, 200, "{}", xml.text);
    assert_eq!(
        xml.header("content-type").as_deref(),
        Some("text/xml; charset=utf-8")
    );
    assert_eq!(
        xml.header("x-content-sha256").as_deref(),
        inv["fiscal"]["einvoice"]["sha256"].as_str()
    );
    assert!(
        xml.text.contains("urn:mfin.gov.hr:cius-2025:1.0"),
        "{}",
        xml.text
    );
    assert!(xml.text.contains(&format!(">{BUYER_OIB}</cbc:EndpointID>")));
    assert!(
        xml.text
            .contains("<cbc:StartDate>2026-11-22</cbc:StartDate>")
    );
    assert!(
        xml.text.contains("#HR:N#Turistička pristojba"),
        "the city tax is out of scope"
    );

    let sent = einvoice_is(&app, id, "sent").await;
    assert!(sent["fiscal"]["einvoice"]["reference"].is_string());
    all_valid(&sim);
    assert_eq!(
        sim.docs()[0].xml,
        xml.text,
        "the intermediary has the document as stored"
    );
    later(&app, 11);
    einvoice_is(&app, id, "delivered").await;
    later(&app, 11);
    let done = einvoice_is(&app, id, "fiscalized").await;
    assert_eq!(done["fiscal"]["status"], "fiscalized");
    let events: Vec<String> = app
        .all_events()
        .await
        .into_iter()
        .filter(|e| e["data"]["id"] == id)
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect();
    for wanted in ["invoice.einvoice_updated", "invoice.fiscalized"] {
        assert!(events.iter().any(|e| e == wanted), "{events:?}");
    }

    // The company pays by transfer; the report leaves on the 1st of December, once.
    let total = done["totals"]["gross"].as_i64().unwrap();
    app.post(
        &format!("/v1/invoices/{id}/payments"),
        json!({"amount": total, "method": "bank_transfer"}),
    )
    .await
    .expect(201);
    let subs = app
        .all("/v1/compliance/submissions?kind=einvoice_payments")
        .await;
    assert_eq!(subs.len(), 1, "{subs:?}");
    assert_eq!(subs[0]["status"], "queued");
    assert!(
        subs[0]["due_at"]
            .as_str()
            .unwrap()
            .starts_with("2026-12-20T22:59:59")
    );
    let report = subs[0]["id"].as_str().unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert!(
        sim.docs()[0].payments.is_empty(),
        "not before the month is over"
    );
    app.clock().set_now("2026-12-01T00:10:00Z".parse().unwrap());
    submission_is(&app, report, "accepted", crate::support::eracun::WAIT).await;
    app.clock().set_now("2027-01-02T00:10:00Z".parse().unwrap());
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let paid = &sim.docs()[0].payments;
    assert_eq!(paid.len(), 1, "reported once: {paid:?}");
    assert_eq!(paid[0]["method"], "T");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_credit_note_refers_to_its_e_invoice() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    let number = out["invoice"]["number"].as_str().unwrap();
    einvoice_is(&app, id, "sent").await;
    // Paid another way: the document says only how to pay; nothing goes to the authority.
    app.post(
        &format!("/v1/invoices/{id}/payment-method"),
        json!({"payment_method": "other"}),
    )
    .await
    .expect(200);
    let credit = app
        .post(
            "/v1/invoices",
            json!({"corrects_invoice_id": id, "reason": "Pogrešan naziv tvrtke"}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(credit["fiscal"]["scheme"], "hr-eracun", "{credit}");
    let cid = credit["id"].as_str().unwrap();
    let xml = app
        .get(&format!("/v1/invoices/{cid}/einvoice.xml"))
        .await
        .text;
    assert!(xml.contains("<CreditNote"), "{xml}");
    assert!(
        xml.contains(&format!(
            "<cac:InvoiceDocumentReference><cbc:ID>{number}</cbc:ID><cbc:IssueDate>2026-11-24</cbc:IssueDate>"
        )),
        "{xml}"
    );
    einvoice_is(&app, cid, "sent").await;
    assert_eq!(sim.docs().len(), 2);
    all_valid(&sim);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_fiscalization_says_why_and_what_to_do() {
    let sim = Sim::start().await;
    sim.fault(Fault::RefuseFiscalization("S006", "Neispravan OIB kupca"));
    let app = hotel(&sim, None).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    einvoice_is(&app, id, "sent").await;
    later(&app, 11);
    einvoice_is(&app, id, "delivered").await;
    later(&app, 11);
    let failed = einvoice_is(&app, id, "rejected").await;
    assert_eq!(failed["fiscal"]["status"], "failed");
    let why = failed["fiscal"]["last_error"].as_str().unwrap();
    assert!(why.contains("S006: Neispravan OIB kupca"), "{why}");
    assert!(why.contains("credit note"), "says what to do: {why}");
    let events = app.all_events().await;
    let event = events
        .iter()
        .find(|e| e["type"] == "invoice.fiscalization_failed" && e["data"]["id"] == id)
        .expect("invoice.fiscalization_failed");
    assert!(
        event["data"]["fiscal"]["last_error"]
            .as_str()
            .unwrap()
            .contains("S006")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lost_answer_is_looked_up_never_sent_twice() {
    let sim = Sim::start().await;
    sim.fault(Fault::LoseAnswer(std::time::Duration::from_secs(8)));
    let app = hotel(&sim, None).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    let subs = app.all("/v1/compliance/submissions?kind=einvoice").await;
    let sub = subs[0]["id"].as_str().unwrap();
    submission_is(&app, sub, "retrying", crate::support::eracun::WAIT).await;
    later(&app, 2);
    let sent = einvoice_is(&app, id, "sent").await;
    assert_eq!(sim.docs().len(), 1, "sent once");
    assert_eq!(
        sent["fiscal"]["einvoice"]["reference"],
        json!(sim.docs()[0].id.to_string())
    );
    let calls = sim.calls();
    assert_eq!(
        calls.iter().filter(|c| *c == "send").count(),
        1,
        "{calls:?}"
    );
    assert!(calls.contains(&"queryOutbox".to_string()), "{calls:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn wrong_account_settings_are_named() {
    let sim = Sim::start().await;
    let app = hotel_with(&sim, |c| c.password = innkeep::config::Secret::new("wrong")).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    let failed = einvoice_is(&app, id, "rejected").await;
    let why = failed["fiscal"]["last_error"].as_str().unwrap();
    assert!(
        why.contains("Korisničko ime i lozinka nisu ispravni"),
        "{why}"
    );
    assert!(
        why.contains("[compliance.einvoice]"),
        "names the settings: {why}"
    );
    assert!(sim.docs().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_company_paying_at_the_desk_by_card_gets_a_cis_receipt() {
    let sim = Sim::start().await;
    let cis = crate::support::cis_sim::Sim::start();
    let app = hotel(&sim, Some(&cis)).await;
    let out = stay_billed(
        &app,
        json!({"payments": [{"method": "card"}], "bill_to": company()}),
    )
    .await;
    let inv = &out["invoice"];
    assert_eq!(inv["fiscal"]["scheme"], "hr-cis", "{inv}");
    assert!(inv["fiscal"].get("einvoice").is_none_or(|e| e.is_null()));
    let id = inv["id"].as_str().unwrap();
    let none = app.get(&format!("/v1/invoices/{id}/einvoice.xml")).await;
    assert_eq!(none.status, 404, "{}", none.text);
    assert!(sim.docs().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn an_outage_is_waited_out() {
    let sim = Sim::start().await;
    sim.set_down(true);
    let app = hotel(&sim, None).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    let subs = app.all("/v1/compliance/submissions?kind=einvoice").await;
    let sub = subs[0]["id"].as_str().unwrap();
    let waiting = submission_is(&app, sub, "retrying", crate::support::eracun::WAIT).await;
    assert!(
        waiting["last_error"].as_str().unwrap().contains("HTTP 503"),
        "{waiting}"
    );
    sim.set_down(false);
    later(&app, 2);
    einvoice_is(&app, id, "sent").await;
    assert_eq!(sim.docs().len(), 1);
}

/// The simulator refuses a document the publishers' rules refuse, with their rule ids, as
/// moj-eRačun does (this proves the check is wired in; it needs the rules provisioned).
#[tokio::test(flavor = "multi_thread")]
async fn the_simulator_refuses_what_the_rules_refuse() {
    use innkeep::compliance::transport::{HttpTransport, Transport};
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    einvoice_is(&app, id, "sent").await;
    if sim.docs()[0].checked == Checked::Unchecked {
        eprintln!("the official rules are not provisioned here: nothing to prove");
        return;
    }
    let good = app
        .get(&format!("/v1/invoices/{id}/einvoice.xml"))
        .await
        .text;
    let start = good.find("<cbc:IssueTime>").unwrap();
    let end = good.find("</cbc:IssueTime>").unwrap() + "</cbc:IssueTime>".len();
    let broken = format!("{}{}", &good[..start], &good[end..]).replace(
        &format!(">{}<", out["invoice"]["number"].as_str().unwrap()),
        ">X-1<",
    );
    let body = json!({"Username": crate::support::mer_sim::USER,
        "Password": crate::support::mer_sim::PASSWORD,
        "CompanyId": crate::support::mer_sim::COMPANY, "CompanyBu": "",
        "SoftwareId": crate::support::mer_sim::SOFTWARE, "File": broken});
    let url = format!("{}/apis/v2/send", sim.url());
    let reply = tokio::task::spawn_blocking(move || {
        HttpTransport::new(std::time::Duration::from_secs(60))
            .post(
                &url,
                &[("Content-Type", "application/json")],
                &body.to_string(),
            )
            .unwrap()
    })
    .await
    .unwrap();
    assert!(reply.body.contains("HR-BR-2"), "{}", reply.body);
    assert_eq!(sim.docs().len(), 1, "refused, not taken");
}

/// A room type's and a charge's own KPD codes reach the lines; a discount (a negative line)
/// and a check-out paid at once by transfer (stated as prepaid) pass the publishers' rules.
#[tokio::test(flavor = "multi_thread")]
async fn own_kpd_codes_allowances_and_payment_at_check_out() {
    let sim = Sim::start().await;
    let app = hotel(&sim, None).await;
    let rt = app
        .post(
            "/v1/room-types",
            json!({"code": "APT", "name": "Apartman", "max_occupancy": 4, "base_rate": 9000,
                   "kpd_code": "55.20.01"}),
        )
        .await
        .expect(201)
        .id();
    let room = app.room("12", &rt).await;
    let guest = app.guest("Luka", "Perić").await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": guest, "room_type_id": rt, "room_id": room,
                   "arrival": "2026-11-22", "departure": "2026-11-23", "adults": 1,
                   "nightly_rate": 9000}),
        )
        .await
        .expect(201)
        .id();
    app.post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    app.clock().set_now("2026-11-23T08:30:00Z".parse().unwrap());
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": r, "bill_to": company(),
                   "payments": [{"method": "bank_transfer"}],
                   "charges": [
                {"description": "Piće iz minibara", "quantity": 2, "unit_price": 400,
                 "tax_rate": 2500, "kpd_code": "56.30.00"},
                {"description": "Popust za stalne goste", "quantity": 1, "unit_price": -1000,
                 "tax_rate": 1300}]}),
        )
        .await
        .expect(200)
        .body;
    let inv = &out["invoice"];
    assert_eq!(inv["fiscal"]["scheme"], "hr-eracun", "{inv}");
    let codes: Vec<&Value> = inv["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["kpd_code"])
        .collect();
    assert_eq!(
        codes,
        [
            &json!("55.20.01"),
            &json!("56.30.00"),
            &json!("55.10.00"),
            &Value::Null
        ],
        "{inv}"
    );
    let id = inv["id"].as_str().unwrap();
    einvoice_is(&app, id, "sent").await;
    all_valid(&sim);
    let xml = &sim.docs()[0].xml;
    assert!(
        xml.contains("<cbc:PrepaidAmount currencyID=\"EUR\">"),
        "{xml}"
    );
    assert!(
        xml.contains("<cbc:PayableAmount currencyID=\"EUR\">0.00</cbc:PayableAmount>"),
        "{xml}"
    );
    assert!(!xml.contains("<cbc:DueDate>"), "nothing left to pay: {xml}");
    assert!(
        xml.contains("<cbc:InvoicedQuantity unitCode=\"H87\">-1</cbc:InvoicedQuantity>"),
        "{xml}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_e_invoice_can_be_retried() {
    let sim = Sim::start().await;
    let app = hotel_with(&sim, |c| c.password = innkeep::config::Secret::new("wrong")).await;
    let out = stay_billed(&app, json!({"pay_later": true, "bill_to": company()})).await;
    let id = out["invoice"]["id"].as_str().unwrap();
    einvoice_is(&app, id, "rejected").await;
    let subs = app.all("/v1/compliance/submissions?kind=einvoice").await;
    let sub = subs[0]["id"].as_str().unwrap();
    let again = app
        .post(
            &format!("/v1/compliance/submissions/{sub}/retry"),
            json!({}),
        )
        .await;
    assert_eq!(again.status, 202, "{}", again.text);
    // Queued again, it is looked up first (an earlier send may have arrived); the look-up
    // is refused for the same account settings, so it waits for them to be fixed.
    let waiting = submission_is(&app, sub, "retrying", crate::support::eracun::WAIT).await;
    let ops = crate::support::operations(&waiting);
    assert!(ops.contains(&"queryOutbox"), "looked up first: {ops:?}");
    assert_eq!(ops.iter().filter(|o| **o == "send").count(), 1, "{ops:?}");
    let why = waiting["last_error"].as_str().unwrap();
    assert!(why.contains("[compliance.einvoice]"), "{why}");
}
