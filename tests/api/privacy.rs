//! A guest's rights over their data from the command line: everything about one person as
//! JSON, and erasure that keeps exactly what the law keeps, named with its law and date.

use serde_json::{Value, json};

use crate::support::binary::innkeep;
use crate::support::stay::hotel;
use crate::support::{Spawn, day};

fn cli(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = innkeep(dir).args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

#[tokio::test]
async fn a_guest_is_exported_then_erased_and_what_the_law_keeps_stays() {
    let dir = tempfile::tempdir().unwrap();
    let app = Spawn::new()
        .data_dir(dir.path().to_path_buf())
        .start()
        .await;
    let h = hotel(&app, 2).await;
    app.put("/v1/settings", crate::support::in_country("IT"))
        .await
        .expect(200);
    app.put(
        &format!("/v1/guests/{}", h.guest),
        json!({"email": "anna@example.com", "phone": "+39 055 123456", "notes": "Allergic to feathers",
               "tax_code": "RSSMRA85T10A562S"}),
    )
    .await
    .expect(200);
    let res = app
        .reserve(&h.guest, &h.room_type, &day(1), &day(3))
        .await
        .expect(201)
        .id();
    app.set_today(1);
    app.post(
        "/v1/check-in",
        json!({"reservation_id": res, "room_id": h.rooms[0]}),
    )
    .await
    .expect(200);
    app.set_today(3);
    let out = app
        .post(
            "/v1/check-out",
            json!({"reservation_id": res, "payment_method": "card"}),
        )
        .await
        .expect(200);
    let number = out.body["invoice"]["number"].as_str().unwrap().to_string();
    let invoice_id = out.body["invoice"]["id"].as_str().unwrap().to_string();

    // Export: the record, the stay, the invoice and the audit trail, in a private file.
    let file = dir.path().join("anna.json");
    let (ok, _, err) = cli(
        dir.path(),
        &["guests", "export", &h.guest, "-o", file.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    assert!(err.contains("Anna Rossi"), "{err}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["guest"]["email"], "anna@example.com");
    assert_eq!(doc["reservations"][0]["id"], res.as_str());
    assert_eq!(doc["invoices"][0]["number"], number.as_str());
    assert!(doc["history"].as_array().unwrap().len() >= 2, "{doc}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    // A guest with a stay still to come cannot be erased yet.
    let bea = h.child.clone();
    app.reserve(&bea, &h.room_type, &day(10), &day(12))
        .await
        .expect(201);
    let (ok, _, err) = cli(dir.path(), &["guests", "erase", &bea, "--yes"]);
    assert!(
        !ok && err.contains("not over") && err.contains("cancel it"),
        "{err}"
    );
    // Without a terminal, erasing needs --yes.
    let (ok, _, err) = cli(dir.path(), &["guests", "erase", &h.guest]);
    assert!(!ok && err.contains("--yes"), "{err}");
    assert_eq!(
        app.get(&format!("/v1/guests/{}", h.guest)).await.body["first_name"],
        "Anna"
    );

    let (ok, out, err) = cli(
        dir.path(),
        &["guests", "erase", &h.guest, "--yes", "--json"],
    );
    assert!(ok, "{err}");
    let done: Value = serde_json::from_str(&out).unwrap();
    let kept = done["kept"].as_array().unwrap();
    let invoice = kept
        .iter()
        .find(|k| k["what"].as_str().unwrap().contains(&number))
        .unwrap_or_else(|| panic!("the invoice is kept: {done}"));
    assert!(
        invoice["why"].as_str().unwrap().contains("art. 2220"),
        "{done}"
    );
    let issued: chrono::NaiveDate = day(3).parse().unwrap();
    assert_eq!(
        invoice["until"],
        (issued + chrono::Months::new(120)).to_string()
    );

    // The record is anonymised; the invoice as issued is not touched.
    let g = app.get(&format!("/v1/guests/{}", h.guest)).await.body;
    assert_eq!(
        (g["first_name"].as_str(), g["last_name"].as_str()),
        (Some("Erased"), Some("Guest"))
    );
    for field in [
        "email",
        "phone",
        "notes",
        "address",
        "document",
        "birth_date",
        "tax_code",
    ] {
        assert!(g[field].is_null(), "{field}: {g}");
    }
    let inv = app.get(&format!("/v1/invoices/{invoice_id}")).await.body;
    assert!(
        inv["bill_to"]["name"]
            .as_str()
            .is_some_and(|n| n.contains("Rossi")),
        "{inv}"
    );
    // The audit trail keeps who did what and when, but no value, and says it was erased.
    let history = app.all(&format!("/v1/guests/{}/history", h.guest)).await;
    let text = serde_json::to_string(&history).unwrap();
    assert!(
        !text.contains("anna@example.com") && !text.contains("feathers"),
        "{text}"
    );
    assert!(text.contains("[erased]"));
    assert!(
        history.iter().any(|e| e["type"] == "guest.erased"),
        "{text}"
    );
    // Integrations hear of it: the last guest event carries the anonymised record.
    let events = app.all_events().await;
    let last = events
        .iter()
        .rev()
        .find(|e| e["data"]["id"] == h.guest.as_str())
        .unwrap_or_else(|| panic!("no event about the guest"));
    assert_eq!(last["type"], "guest.updated");
    assert_eq!(last["data"]["first_name"], "Erased");
}
