//! The operator's mark (issue 30, part 3): an admin gives each staff member a short mark,
//! one member's only; the invoices a member issues keep and print it, with the time of
//! issue, and an invoice issued through the API by an integration carries none.

use crate::support::desk::{Browser, hidden, staff};
use crate::support::{in_country, spawn_app};

/// The id in `/admin/staff/{id}` for `name` on the staff list.
async fn staff_id(b: &Browser, name: &str) -> String {
    let list = b.get("/admin/staff").await;
    let at = list.text.find(&format!("\">{name}</a>")).expect(name);
    let start = list.text[..at].rfind("/admin/staff/").unwrap() + "/admin/staff/".len();
    list.text[start..at].to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_invoice_prints_the_mark_of_who_issued_it_and_its_time() {
    let app = spawn_app().await;
    app.put("/v1/settings", in_country("HR")).await.expect(200);
    let root = staff(&app, "root", "admin").await;
    let marta = staff(&app, "marta", "front_desk").await;
    staff(&app, "ivo", "front_desk").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    let (marta_id, ivo_id) = (staff_id(&a, "marta").await, staff_id(&a, "ivo").await);
    let page = a.get(&format!("/admin/staff/{marta_id}")).await;
    assert!(
        page.text.contains("Operator mark on invoices"),
        "{}",
        page.text
    );
    let csrf = Browser::csrf(&page);
    let mark = |id: &str, m: &'static str| {
        let (a, csrf, path) = (&a, csrf.clone(), format!("/admin/staff/{id}/operator-mark"));
        async move {
            a.post(&path, &[("csrf", &csrf), ("operator_mark", m)])
                .await
        }
    };
    let bad = mark(&marta_id, "M K!").await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(
        bad.text.contains("must be 1 to 10 letters or digits"),
        "{}",
        bad.text
    );
    assert!(bad.text.contains("id=\"operator_mark-error\"") && bad.text.contains("value=\"M K!\""));
    assert_eq!(mark(&marta_id, "mk").await.status, 303);
    let shown = a.get(&format!("/admin/staff/{marta_id}")).await;
    assert!(shown.text.contains("value=\"MK\""), "kept in capitals");
    let taken = mark(&ivo_id, "MK").await;
    assert_eq!(taken.status, 409, "{}", taken.text);
    assert!(taken.text.contains("already marta"), "{}", taken.text);

    // Marta sells at the desk: the invoice keeps her mark and shows the time of issue.
    let g = app.guest("Ana", "Kovač").await;
    let b = Browser::sign_in(&app, "marta", &marta).await;
    let form = b.get(&format!("/invoices/new?guest={g}")).await;
    let (csrf, key) = (Browser::csrf(&form), hidden(&form.text, "key").unwrap());
    let sold = b
        .post(
            "/invoices/new",
            &[
                ("csrf", csrf.as_str()),
                ("key", key.as_str()),
                ("guest", g.as_str()),
                ("rows", "1"),
                ("l0_description", "Dinner"),
                ("l0_quantity", "1"),
                ("l0_unit_price", "25"),
                ("method", "cash"),
                ("step", "sell"),
            ],
        )
        .await;
    assert_eq!(sold.status, 303, "{}", sold.text);
    let to = sold.header("location").unwrap();
    let id = to
        .trim_start_matches("/invoices/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let invoice = app
        .get(&format!("/v1/invoices/{id}"))
        .await
        .expect(200)
        .body;
    assert_eq!(invoice["operator_mark"], "MK");
    assert!(invoice["issued_at"].as_str().unwrap().ends_with('Z'));
    let printed = b.get(&to).await;
    assert!(
        printed.text.contains("<dt>Operator</dt><dd>MK</dd>"),
        "{}",
        printed.text
    );
    assert!(printed.text.contains("<dt>Time of issue</dt>"));

    // An integration's invoice carries no mark.
    let api = app
        .post(
            "/v1/invoices",
            serde_json::json!({"guest_id": g, "payment_method": "card",
                "lines": [{"description": "Wine", "quantity": 1, "unit_price": 1999}]}),
        )
        .await
        .expect(201);
    assert!(api.body["operator_mark"].is_null());
}

/// A receptionist's own OIB goes to CIS as the operator of the receipts they issue; an
/// invoice issued through the API carries the configuration's operator. A wrong OIB is
/// refused on the staff page.
#[tokio::test(flavor = "multi_thread")]
async fn a_receipt_names_its_own_operator_to_cis() {
    use crate::support::cis_sim::Sim;
    use crate::support::fiscal::{fiscal_is, hotel};
    let sim = Sim::start();
    let app = hotel(&sim).await;
    app.put("/v1/settings", in_country("HR")).await.expect(200);
    let root = staff(&app, "root", "admin").await;
    let marta = staff(&app, "marta", "front_desk").await;
    let a = Browser::sign_in(&app, "root", &root).await;
    let id = staff_id(&a, "marta").await;
    let page = a.get(&format!("/admin/staff/{id}")).await;
    let csrf = Browser::csrf(&page);
    let path = format!("/admin/staff/{id}/operator-mark");
    let set = |oib: &'static str| {
        let (a, csrf, path) = (&a, csrf.clone(), path.clone());
        async move {
            a.post(
                &path,
                &[("csrf", &csrf), ("operator_mark", "MK"), ("oib", oib)],
            )
            .await
        }
    };
    let wrong = set("12345678901").await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(
        wrong.text.contains("Their OIB (Croatia) is not an OIB"),
        "{}",
        wrong.text
    );
    assert!(wrong.text.contains("id=\"oib-error\""), "next to its field");
    assert!(wrong.text.contains("value=\"12345678901\"") && wrong.text.contains("value=\"MK\""));
    assert_eq!(set("HR 12345678903").await.status, 303);

    let g = app.guest("Ana", "Kovač").await;
    let b = Browser::sign_in(&app, "marta", &marta).await;
    let form = b.get(&format!("/invoices/new?guest={g}")).await;
    let (csrf, key) = (Browser::csrf(&form), hidden(&form.text, "key").unwrap());
    let fields = [
        ("csrf", csrf.as_str()),
        ("key", key.as_str()),
        ("guest", g.as_str()),
        ("rows", "1"),
        ("l0_description", "Dinner"),
        ("l0_quantity", "1"),
        ("l0_unit_price", "25"),
        ("method", "card"),
        ("step", "sell"),
    ];
    let sold = b.post("/invoices/new", &fields).await;
    assert_eq!(sold.status, 303, "{}", sold.text);
    let at = sold.header("location").unwrap();
    let invoice = at
        .trim_start_matches("/invoices/")
        .split('?')
        .next()
        .unwrap();
    fiscal_is(&app, invoice, "fiscalized").await;
    let via_api = crate::support::fiscal::sale(&app, "cash").await;
    fiscal_is(&app, via_api["id"].as_str().unwrap(), "fiscalized").await;
    let operators: Vec<String> = sim.received().into_iter().map(|r| r.operator_oib).collect();
    assert_eq!(operators, ["12345678903", "69435151530"]);
    assert_eq!(sim.violations(), Vec::<String>::new());
}
