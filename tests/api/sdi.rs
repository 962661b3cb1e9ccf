//! Italy's electronic invoices end to end: an Italian stay ends with one FatturaPA that the
//! simulated SdI intermediary checks (schema and arithmetic) and SdI delivers; a company's
//! invoice goes to its recipient code and its credit note is a TD04; a discard is shown in
//! plain words; a lost answer never sends twice; a buyer without a codice fiscale is refused
//! at the field; the manual mode only makes the file.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::sdi::{self, hotel, italian_guest, settles, stay, xml};
use crate::support::sdi_sim::{Fault, Sim};

fn element<'a>(doc: &'a roxmltree::Document, name: &str) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.has_tag_name(name))
        .filter_map(|n| n.text())
        .collect()
}

#[tokio::test]
async fn an_italian_stay_ends_with_one_fatturapa_that_sdi_accepts() {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    let out = stay(&app, italian_guest(), json!({"payment_method": "card"}))
        .await
        .expect(200)
        .body;
    let inv = &out["invoice"];
    let id = inv["id"].as_str().unwrap();
    assert_eq!(inv["fiscal"]["scheme"], "it-sdi", "{inv}");
    assert_eq!(inv["fiscal"]["einvoice"]["intermediary"], "invoicetronic");
    let done = settles(&app, id, "fiscalized").await;
    assert_eq!(done["fiscal"]["status"], "fiscalized", "{done}");

    let text = xml(&app, id).await;
    let sent = sim.sent();
    assert_eq!(sent.len(), 1, "one file");
    assert_eq!(sent[0].xml, text, "what was sent is what is served");
    assert!(sent[0].errors.is_empty(), "{:?}", sent[0].errors);
    assert_eq!(sent[0].file_name, format!("IT{}_00001.xml", sdi::SELLER));
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(element(&doc, "TipoDocumento"), ["TD01"]);
    assert_eq!(element(&doc, "CodiceFiscale"), ["RSSMRA85T10A562S"]);
    assert_eq!(element(&doc, "CodiceDestinatario"), ["0000000"]);
    assert_eq!(element(&doc, "Nome"), ["Mario"]);
    // Two nights at 120.00 (10 %) and 2 × 2 person-nights of city tax at 3.00 (N1).
    assert_eq!(element(&doc, "Natura"), ["N1", "N1"]);
    assert_eq!(element(&doc, "ImportoTotaleDocumento"), ["252.00"]);
    // One summary per rate, lowest first: the city tax at 0 % (N1), the rooms at 10 %.
    assert_eq!(element(&doc, "ImponibileImporto"), ["12.00", "218.18"]);
    assert_eq!(element(&doc, "Imposta"), ["0.00", "21.82"]);
    assert_eq!(element(&doc, "ModalitaPagamento"), ["MP08"]);
    assert_eq!(element(&doc, "DataInizioPeriodo"), ["2026-11-22"]);
    assert!(
        element(&doc, "DatiBollo").is_empty(),
        "12.00 outside VAT is under the threshold"
    );
}

#[tokio::test]
async fn a_company_invoice_reaches_its_recipient_code_and_its_credit_note_is_a_td04() {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    let company = json!({"kind": "business", "name": "Viaggi & Co. S.p.A.", "vat_id": "IT01234567897",
        "sdi_code": "m5uxcr1", "address": {"line1": "Corso Italia 8", "city": "Milano",
        "postal_code": "20122", "region": "MI", "country": "IT"}});
    let out = stay(
        &app,
        italian_guest(),
        json!({"pay_later": true, "bill_to": company}),
    )
    .await
    .expect(200)
    .body;
    let id = out["invoice"]["id"].as_str().unwrap().to_string();
    settles(&app, &id, "fiscalized").await;
    let doc_text = xml(&app, &id).await;
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    assert_eq!(element(&doc, "CodiceDestinatario"), ["M5UXCR1"]);
    assert_eq!(
        element(&doc, "IdCodice")[2],
        "01234567897",
        "the buyer's partita IVA"
    );
    assert_eq!(element(&doc, "Denominazione")[1], "Viaggi & Co. S.p.A.");
    assert_eq!(element(&doc, "ModalitaPagamento"), ["MP05"]);
    assert_eq!(element(&doc, "IBAN"), ["IT60X0542811101000000123456"]);

    let credit = crate::support::fiscal::credit_note(&app, &id, "Prenotazione annullata").await;
    let cid = credit["id"].as_str().unwrap();
    settles(&app, cid, "fiscalized").await;
    let c = xml(&app, cid).await;
    let cdoc = roxmltree::Document::parse(&c).unwrap();
    assert_eq!(element(&cdoc, "TipoDocumento"), ["TD04"]);
    assert_eq!(
        element(&cdoc, "IdDocumento"),
        [out["invoice"]["number"].as_str().unwrap()]
    );
    assert_eq!(
        element(&cdoc, "ImportoTotaleDocumento"),
        ["252.00"],
        "positive on a TD04"
    );
    assert_eq!(element(&cdoc, "Causale"), ["Prenotazione annullata"]);
    let sent = sim.sent();
    assert_eq!(sent.len(), 2);
    assert!(
        sent.iter().all(|s| s.errors.is_empty()),
        "{:?}",
        sent.iter().map(|s| &s.errors).collect::<Vec<_>>()
    );
    assert_eq!(sent[1].file_name, format!("IT{}_00002.xml", sdi::SELLER));
}

#[tokio::test]
async fn a_discard_is_shown_in_plain_words() {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    sim.fault(Fault::Discard(
        "00306",
        "CodiceFiscale del CessionarioCommittente non valido",
    ));
    let out = stay(&app, italian_guest(), json!({"payment_method": "cash"}))
        .await
        .expect(200)
        .body;
    let id = out["invoice"]["id"].as_str().unwrap();
    let inv = settles(&app, id, "rejected").await;
    assert_eq!(inv["fiscal"]["status"], "failed", "{inv}");
    let why = inv["fiscal"]["last_error"].as_str().unwrap();
    assert!(
        why.contains("SdI discarded it, so in law it was not issued"),
        "{why}"
    );
    assert!(why.contains("00306"), "{why}");
    assert!(
        why.contains("correct it on the guest or the bill-to"),
        "{why}"
    );
    let events = app
        .get("/v1/events?type=invoice.fiscalization_failed")
        .await
        .body;
    assert!(events.to_string().contains(id), "{events}");

    // The fix: a credit note that SdI never sees, then a new invoice to the right buyer.
    let credit = app
        .post(
            "/v1/invoices",
            json!({"corrects_invoice_id": id, "reason": "Scartata dallo SdI: codice fiscale errato"}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(credit["fiscal"]["status"], "not_required", "{credit}");
    assert!(credit["fiscal"]["einvoice"].is_null(), "{credit}");
    assert_eq!(
        sim.sent().len(),
        1,
        "the credit note of a discarded invoice is not sent"
    );

    // ... then the corrected invoice: the same lines under a new number, to the right buyer.
    let mut corrected = out["invoice"]["bill_to"].clone();
    corrected["tax_code"] = json!("MRTMTT91D08F205J");
    let again = app
        .post(
            "/v1/invoices",
            json!({"reissues_invoice_id": id, "bill_to": corrected}),
        )
        .await
        .expect(201)
        .body;
    assert_eq!(again["reissues_invoice_id"], id, "{again}");
    assert_eq!(again["totals"], out["invoice"]["totals"]);
    assert_eq!(again["lines"].as_array().unwrap().len(), 2);
    assert_eq!(again["payment_method"], "cash");
    let new_id = again["id"].as_str().unwrap();
    settles(&app, new_id, "fiscalized").await;
    let sent = sim.sent();
    assert_eq!(
        sent.len(),
        2,
        "the discarded file and the corrected invoice"
    );
    assert!(
        sent[1]
            .xml
            .contains("<CodiceFiscale>MRTMTT91D08F205J</CodiceFiscale>")
    );
    assert!(
        sent[1].xml.contains("<Natura>N1</Natura>"),
        "the city tax keeps its nature"
    );
    let twice = app
        .post("/v1/invoices", json!({"reissues_invoice_id": id}))
        .await;
    assert_eq!(twice.status, 409, "{}", twice.text);
    assert!(twice.text.contains("already replaced"), "{}", twice.text);
    let not_reversed = app
        .post("/v1/invoices", json!({"reissues_invoice_id": new_id}))
        .await;
    assert_eq!(not_reversed.status, 409, "{}", not_reversed.text);
    assert!(
        not_reversed
            .text
            .contains("reverse it with a credit note first"),
        "{}",
        not_reversed.text
    );
}

#[tokio::test]
async fn a_lost_answer_never_sends_the_invoice_twice() {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    sim.fault(Fault::LoseAnswer(Duration::from_secs(5)));
    let out = stay(&app, italian_guest(), json!({"payment_method": "card"}))
        .await
        .expect(200)
        .body;
    let id = out["invoice"]["id"].as_str().unwrap();
    settles(&app, id, "fiscalized").await;
    assert_eq!(sim.sent().len(), 1, "calls: {:?}", sim.calls());
    assert!(
        sim.calls().contains(&"send (list)".to_string()),
        "looked up before sending again: {:?}",
        sim.calls()
    );
}

#[tokio::test]
async fn an_italian_buyer_without_a_codice_fiscale_is_refused_at_the_field_and_a_foreign_one_is_not()
 {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    let mut guest = italian_guest();
    guest["tax_code"] = Value::Null;
    let refused = stay(&app, guest, json!({"payment_method": "card"})).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert_eq!(
        refused.body["errors"][0]["field"], "bill_to.tax_code",
        "{}",
        refused.text
    );
    assert!(refused.text.contains("codice fiscale"), "{}", refused.text);

    let foreign = json!({"first_name": "Anna", "last_name": "Müller",
        "address": {"line1": "Hauptstraße 5", "city": "München", "postal_code": "80331", "country": "DE"}});
    let out = stay(&app, foreign, json!({"payment_method": "card"}))
        .await
        .expect(200)
        .body;
    let id = out["invoice"]["id"].as_str().unwrap();
    settles(&app, id, "fiscalized").await;
    let doc_text = xml(&app, id).await;
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    assert_eq!(element(&doc, "CodiceDestinatario"), ["XXXXXXX"]);
    assert_eq!(element(&doc, "CAP")[1], "00000");
    assert_eq!(element(&doc, "IdCodice")[2], "99999999999");
    assert_eq!(
        element(&doc, "Cognome"),
        ["Müller"],
        "Latin-1 kept as it is"
    );
}

#[tokio::test]
async fn the_manual_mode_only_makes_the_file() {
    let app = hotel(None).await;
    let out = stay(&app, italian_guest(), json!({"payment_method": "card"}))
        .await
        .expect(200)
        .body;
    let inv = &out["invoice"];
    assert_eq!(inv["fiscal"]["einvoice"]["intermediary"], "manual", "{inv}");
    assert_eq!(inv["fiscal"]["status"], "not_required", "{inv}");
    let id = inv["id"].as_str().unwrap();
    let text = xml(&app, id).await;
    assert!(innkeep::compliance::fatturapa::schema::problems(&text).is_empty());
    let subs = app.get("/v1/compliance/submissions").await.body;
    assert_eq!(subs["data"].as_array().map(Vec::len), Some(0), "{subs}");
}

#[tokio::test]
async fn the_simulated_sdi_discards_an_invoice_number_it_already_has() {
    let sim = Sim::start().await;
    let app = hotel(Some(&sim)).await;
    let out = stay(&app, italian_guest(), json!({"payment_method": "card"}))
        .await
        .expect(200)
        .body;
    let id = out["invoice"]["id"].as_str().unwrap();
    settles(&app, id, "fiscalized").await;
    // The same invoice again under another file name, as a careless sender would.
    let client = reqwest::Client::new();
    let again: Value = client
        .post(format!("{}/send?validate=true", sim.url()))
        .basic_auth(crate::support::sdi_sim::KEY, Some(""))
        .json(&json!({"file_name": "IT06363391001_ZZZZZ.xml", "payload": sim.sent()[0].xml, "encoding": "Xml"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let updates: Value = client
        .get(format!("{}/update?send_id={}", sim.url(), again["id"]))
        .basic_auth(crate::support::sdi_sim::KEY, Some(""))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let last = &updates[1];
    assert_eq!(last["state"], "Scartato", "{updates}");
    assert_eq!(last["errors"][0]["code"], "00404", "{updates}");
}
