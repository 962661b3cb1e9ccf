//! The compliance centre at the desk (screen 10): a registration the police's simulator
//! refused is listed with its problem and sent again once the guest is corrected; the day's
//! registration file downloads; an official code table is uploaded (a wrong file is said at
//! the field); other roles are refused.

use std::time::Duration;

use serde_json::json;

use crate::support::alloggiati_sim::Sim;
use crate::support::desk::{Browser, staff};
use crate::support::eventually;
use crate::support::registration::{day, hotel, italian};

const WAIT: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_registration_is_seen_corrected_and_sent_again_from_the_centre() {
    let sim = Sim::start(day()).await;
    sim.reject_surname("ROSSO");
    let app = hotel(&sim).await;
    let mut head = italian("Pia", "Rosso", "female", "1980-05-15", "Roma", "RM");
    head["document"] = json!({"type": "id_card", "number": "CA 12345-AB", "issuing_place": "Roma"});
    let g = app.post("/v1/guests", head).await.expect(201).id();
    let rt = app.room_type("DBL", 2).await;
    let room = app.room("101", &rt).await;
    let r = app
        .post(
            "/v1/reservations",
            json!({"primary_guest_id": g, "room_type_id": rt, "room_id": room,
                   "arrival": day().to_string(), "departure": (day() + chrono::Days::new(2)).to_string(), "adults": 1}),
        )
        .await
        .expect(201)
        .id();
    let answer = app
        .post("/v1/check-in", json!({"reservation_id": r}))
        .await
        .expect(200);
    let sub = answer.body["registration"]["submission_id"]
        .as_str()
        .unwrap()
        .to_string();
    let password = staff(&app, "root", "admin").await;
    let a = Browser::sign_in(&app, "root", &password).await;
    let page = eventually(WAIT, "the refusal listed", || async {
        let p = a.get("/admin/compliance").await;
        if p.text.contains("refused by the authority") {
            Ok(p)
        } else {
            Err(p.status)
        }
    })
    .await;
    assert!(page.text.contains("Italy, Alloggiati Web"), "{}", page.text);
    assert!(page.text.contains(&format!("href=\"/reservations/{r}\"")));
    // The booking by its code and guest, the refusal in words with the authority's own text
    // behind "Details", and no UTC stamp.
    let code = app.get(&format!("/v1/reservations/{r}")).await.body["code"]
        .as_str()
        .unwrap()
        .to_string();
    let table = &page.text[page.text.find("<tbody").unwrap()..];
    let table = &table[..table.find("</tbody>").unwrap()];
    assert!(
        table.contains(&format!("{code}, Pia Rosso"))
            && table.contains("The authority refused this record")
            && table.contains("<details><summary>Details</summary>"),
        "{table}"
    );
    assert!(!table.contains(&format!(">{r}<")), "no raw id: {table}");
    assert!(
        page.text
            .contains(&format!("action=\"/admin/compliance/submissions/{sub}\""))
    );
    let csrf = Browser::csrf(&page);

    // The day's file, for a manual upload: the refused row is in it.
    let file = a
        .get(&format!(
            "/admin/compliance/registration-file?day={}",
            day()
        ))
        .await;
    assert_eq!(file.status, 200);
    assert!(
        file.header("content-disposition")
            .unwrap()
            .contains("attachment")
    );
    assert!(file.text.contains("ROSSO"), "{}", file.text);
    let bad_day = a
        .get("/admin/compliance/registration-file?day=tomorrow")
        .await;
    assert_eq!(bad_day.status, 422);

    app.put(&format!("/v1/guests/{g}"), json!({"last_name": "Rossi"}))
        .await
        .expect(200);
    let again = a
        .post(
            &format!("/admin/compliance/submissions/{sub}"),
            &[("csrf", &csrf)],
        )
        .await;
    assert_eq!(again.status, 303, "{}", again.text);
    eventually(WAIT, "accepted after the retry", || async {
        let s = app
            .get(&format!("/v1/compliance/submissions/{sub}"))
            .await
            .body;
        if s["status"] == "accepted" {
            Ok(())
        } else {
            Err(s["status"].clone())
        }
    })
    .await;
    let done = a.get("/admin/compliance").await;
    assert!(
        done.text.contains("Everything sent has been accepted."),
        "{}",
        done.text
    );

    // Code tables: a file that is not the table is refused at the field; the sample loads.
    let wrong = a
        .post_file(
            "/admin/compliance/tables",
            &[("csrf", &csrf), ("table", "Luoghi")],
            ("file", "notes.csv", b"hello;world\n"),
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(wrong.text.contains("id=\"file-error\""), "{}", wrong.text);
    let sample = include_str!("../../assets/compliance/it-alloggiati/Tipi_Documento.sample.csv");
    let ok = a
        .post_file(
            "/admin/compliance/tables",
            &[("csrf", &csrf), ("table", "Tipi_Documento")],
            ("file", "Tipi_Documento.csv", sample.as_bytes()),
        )
        .await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    let tables = a.get("/admin/compliance?done=table-imported").await;
    assert!(
        tables.text.contains("The table is loaded.") && tables.text.contains("Tipi_Documento.csv")
    );
    let forged = a
        .post_file(
            "/admin/compliance/tables",
            &[("csrf", "nope"), ("table", "Luoghi")],
            ("file", "x.csv", sample.as_bytes()),
        )
        .await;
    assert_eq!(forged.status, 403);

    // In a real browser: axe, and a look.
    if let Some(b) = crate::support::browser::chrome(1280, 900).await {
        let base = format!("http://{}", app.addr);
        b.sign_in(&base, "root", &password).await;
        b.client
            .goto(&format!("{base}/admin/compliance"))
            .await
            .unwrap();
        b.axe("The compliance centre").await;
        b.screenshot("desk-admin-compliance").await;
        b.client.clone().close().await.unwrap();
    }

    let hk = staff(&app, "hana", "housekeeping").await;
    let h = Browser::sign_in(&app, "hana", &hk).await;
    assert_eq!(h.get("/admin/compliance").await.status, 403);
}
