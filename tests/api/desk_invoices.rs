//! Invoices at the desk (screen 8, second part): reversing an invoice with a credit note
//! (reason and confirmation, errors in place), a sale outside a stay (guest found by name,
//! lines with their errors at their place, one invoice for a form sent twice), one guest's
//! invoices, and the roles that may not.

use serde_json::json;

use crate::support::desk::{Browser, hidden, staff};
use crate::support::{TestApp, spawn_app};

/// A sale issued through the API: (id, number).
async fn sale(app: &TestApp, guest: &str) -> (String, String) {
    let inv = app
        .post(
            "/v1/invoices",
            json!({"guest_id": guest, "payment_method": "cash",
                   "lines": [{"description": "Dinner", "quantity": 2, "unit_price": 2500}]}),
        )
        .await
        .expect(201)
        .body;
    let s = |k: &str| inv[k].as_str().unwrap().to_string();
    (s("id"), s("number"))
}

#[tokio::test(flavor = "multi_thread")]
async fn an_invoice_is_reversed_with_a_credit_note_from_its_page() {
    let app = spawn_app().await;
    let g = app.guest("Anna", "Rossi").await;
    let (id, number) = sale(&app, &g).await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/invoices/{id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text
            .contains(&format!("action=\"/invoices/{id}/credit-note\""))
    );
    assert!(
        page.text
            .contains(&format!("Yes, reverse invoice {number} in full"))
    );
    let csrf = Browser::csrf(&page);
    let path = format!("/invoices/{id}/credit-note");

    // Neither a reason nor the tick: both said next to their fields, nothing issued.
    let refused = b.post(&path, &[("csrf", &csrf), ("reason", "  ")]).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"reason-error\""),
        "{}",
        refused.text
    );
    assert!(refused.text.contains("id=\"confirm-error\""));
    assert!(
        refused
            .text
            .contains("<details class=\"change no-print\" open>")
    );
    // A reason but no tick: the reason stays in the form.
    let refused = b
        .post(&path, &[("csrf", &csrf), ("reason", "Billed twice")])
        .await;
    assert_eq!(refused.status, 422);
    assert!(refused.text.contains("value=\"Billed twice\""));
    assert!(!refused.text.contains("id=\"reason-error\""));
    let list = app.get("/v1/invoices").await.expect(200).body;
    assert_eq!(
        list["data"].as_array().unwrap().len(),
        1,
        "nothing issued yet"
    );

    let done = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("reason", "Billed twice"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let to = done.header("location").unwrap();
    assert!(to.ends_with("?done=credited"), "{to}");
    let credit = b.get(&to).await;
    assert_eq!(credit.status, 200);
    assert!(credit.text.contains("Credit note "), "{}", credit.text);
    assert!(credit.text.contains(&format!("Reverses invoice {number}")));
    assert!(credit.text.contains("Billed twice"));
    assert!(credit.text.contains("The invoice is reversed."));
    assert!(
        !credit.text.contains("/credit-note\""),
        "a credit note is not reversed"
    );
    assert!(credit.text.contains("-EUR 50.00"), "{}", credit.text);

    let original = b.get(&format!("/invoices/{id}")).await;
    assert!(original.text.contains("Reversed by credit note "));
    assert!(
        !original.text.contains("/credit-note\""),
        "reversed once only"
    );
    let api = app
        .get(&format!("/v1/invoices/{id}"))
        .await
        .expect(200)
        .body;
    assert_eq!(api["status"], "cancelled");
    // Sent again (a stale page): refused in words, nothing more issued.
    let again = b
        .post(
            &path,
            &[
                ("csrf", &csrf),
                ("reason", "Billed twice"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(again.status, 409, "{}", again.text);
    assert!(again.text.contains("already reversed"), "{}", again.text);
    let list = app.get("/v1/invoices").await.expect(200).body;
    assert_eq!(list["data"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sale_outside_a_stay_is_issued_once_with_its_errors_in_place() {
    let app = spawn_app().await;
    let g = app.guest("Anna", "Rossi").await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let start = b.get("/invoices").await;
    assert!(
        start.text.contains("href=\"/invoices/new\""),
        "{}",
        start.text
    );
    let found = b.get("/invoices/new?q=Ros").await;
    assert_eq!(found.status, 200, "{}", found.text);
    assert!(
        found
            .text
            .contains(&format!("href=\"/invoices/new?guest={g}\""))
    );
    let none = b.get("/invoices/new?q=Nobody").await;
    assert!(none.text.contains("No guest has that name"));

    let form = b.get(&format!("/invoices/new?guest={g}")).await;
    assert_eq!(form.status, 200);
    assert!(form.text.contains("Billed to <strong>Anna Rossi</strong>"));
    let csrf = Browser::csrf(&form);
    let key = hidden(&form.text, "key").unwrap();
    // "Add a line" keeps what was typed and adds a third line.
    let more = b
        .post(
            "/invoices/new",
            &[
                ("csrf", &csrf),
                ("key", &key),
                ("guest", &g),
                ("rows", "2"),
                ("l0_description", "Dinner"),
                ("l0_quantity", "2"),
                ("l0_unit_price", "25"),
                ("step", "more"),
            ],
        )
        .await;
    assert_eq!(more.status, 200, "{}", more.text);
    assert!(more.text.contains("name=\"l2_description\""));
    assert!(more.text.contains("value=\"Dinner\""));

    // Line 3 has no description and a price that is not an amount; no payment method.
    let fields = |price: &'static str, method: &'static str| {
        vec![
            ("csrf", csrf.clone()),
            ("key", key.clone()),
            ("guest", g.clone()),
            ("rows", "3".into()),
            ("l0_description", "Dinner".into()),
            ("l0_quantity", "2".into()),
            ("l0_unit_price", "25".into()),
            ("l1_description", "".into()),
            ("l2_description", "".into()),
            ("l2_quantity", "1".into()),
            ("l2_unit_price", price.into()),
            ("l2_tax_rate", "10".into()),
            ("method", method.into()),
            ("step", "sell".into()),
        ]
    };
    let post = |f: Vec<(&'static str, String)>| {
        let b = &b;
        async move {
            let pairs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
            b.post("/invoices/new", &pairs).await
        }
    };
    let refused = post(fields("ten", "")).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains("id=\"l2_unit_price-error\""),
        "{}",
        refused.text
    );
    assert!(refused.text.contains("Write an amount such as 12.50."));
    assert!(refused.text.contains("id=\"l2_description-error\""));
    assert!(refused.text.contains("id=\"method-error\""));
    assert!(
        !refused.text.contains("l0_unit_price-error")
            && !refused.text.contains("l1_description-error"),
        "lines 1 and 2 are right, or empty"
    );
    assert!(refused.text.contains("value=\"ten\""), "typed values kept");
    let none = app.get("/v1/invoices").await.expect(200).body;
    assert!(none["data"].as_array().unwrap().is_empty());

    // Corrected (line 3 given a description): issued; sent again, the same invoice.
    let mut right = fields("4.50", "card");
    right[8] = ("l2_description", "Parking".into());
    let refused_key = hidden(&refused.text, "key").unwrap();
    right[1] = ("key", refused_key);
    let done = post(right.clone()).await;
    assert_eq!(done.status, 303, "{}", done.text);
    let to = done.header("location").unwrap();
    assert!(to.ends_with("?done=sold"), "{to}");
    let twice = post(right).await;
    assert_eq!(twice.status, 303);
    assert_eq!(
        twice.header("location").unwrap(),
        to,
        "one invoice for one form"
    );
    let list = app.get("/v1/invoices").await.expect(200).body;
    let all = list["data"].as_array().unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0]["totals"]["gross"], 5450);
    assert_eq!(all[0]["lines"][1]["tax_rate"], 1000);
    let page = b.get(&to).await;
    assert!(page.text.contains("The invoice is issued."));
    assert!(page.text.contains("Parking"));

    // One guest's invoices, from the guest's page.
    let guest = b.get(&format!("/guests/{g}")).await;
    assert!(
        guest
            .text
            .contains(&format!("href=\"/invoices?guest={g}\""))
    );
    let theirs = b.get(&format!("/invoices?guest={g}")).await;
    assert!(theirs.text.contains("For Anna Rossi"), "{}", theirs.text);
    assert!(theirs.text.contains("1 invoice issued"));
    let other = app.guest("Boris", "Horvat").await;
    let not_theirs = b.get(&format!("/invoices?guest={other}")).await;
    assert!(not_theirs.text.contains("0 invoices issued"));
    assert_eq!(b.get("/invoices?guest=gst_nobody").await.status, 404);

    // Housekeeping may neither sell nor reverse.
    let hk = staff(&app, "hana", "housekeeping").await;
    let h = Browser::sign_in(&app, "hana", &hk).await;
    assert_eq!(h.get("/invoices/new").await.status, 403);
    let hp = h.get("/housekeeping").await;
    let hcsrf = Browser::csrf(&hp);
    let id = all[0]["id"].as_str().unwrap();
    let path = format!("/invoices/{id}/credit-note");
    let no = h
        .post(
            &path,
            &[("csrf", &hcsrf), ("reason", "x"), ("confirm", "yes")],
        )
        .await;
    assert_eq!(no.status, 403, "{}", no.text);
}

#[tokio::test(flavor = "multi_thread")]
async fn in_a_browser_a_credit_note_from_the_invoice_page_and_a_sale() {
    use fantoccini::Locator;
    let Some(b) = crate::support::browser::chrome(1280, 900).await else {
        return;
    };
    let app = spawn_app().await;
    let g = app.guest("Anna", "Rossi").await;
    let (id, number) = sale(&app, &g).await;
    let password = staff(&app, "marta", "front_desk").await;
    let base = format!("http://{}", app.addr);
    b.sign_in(&base, "marta", &password).await;
    let c = &b.client;
    c.goto(&format!("{base}/invoices/{id}")).await.unwrap();
    let other_way = b
        .wait_for(Locator::Css("details.change:last-of-type summary"))
        .await;
    other_way.click().await.unwrap();
    c.execute(
        "document.getElementById('payment_method').scrollIntoView()",
        vec![],
    )
    .await
    .unwrap();
    b.axe("The invoice, with the payment-method form open")
        .await;
    b.screenshot("desk-invoice-payment-method").await;
    other_way.click().await.unwrap();
    let summary = b.wait_for(Locator::Css("details.change summary")).await;
    summary.click().await.unwrap();
    c.find(Locator::Id("reason"))
        .await
        .unwrap()
        .send_keys("Billed twice")
        .await
        .unwrap();
    b.click(Locator::Id("confirm")).await;
    b.axe("The invoice, with the credit note form open").await;
    b.screenshot("desk-invoice-credit-form").await;
    b.click(Locator::Css("form[action$='/credit-note'] button"))
        .await;
    let flash = b.wait_for(Locator::Css("p.flash")).await;
    assert!(
        flash
            .text()
            .await
            .unwrap()
            .contains("The invoice is reversed.")
    );
    let body = c
        .find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        body.contains(&format!("Reverses invoice {number}")),
        "{body}"
    );
    b.axe("A credit note").await;
    b.screenshot("desk-credit-note").await;

    // A sale: find the guest, two lines, card.
    c.goto(&format!("{base}/invoices/new")).await.unwrap();
    let q = b.wait_for(Locator::Id("q")).await;
    q.send_keys("Rossi\u{e007}").await.unwrap();
    b.wait_for(Locator::Css("a[href^='/invoices/new?guest=']"))
        .await
        .click()
        .await
        .unwrap();
    let first = b.wait_for(Locator::Id("l0_description")).await;
    b.axe("A sale").await;
    first.send_keys("Dinner").await.unwrap();
    c.find(Locator::Id("l0_unit_price"))
        .await
        .unwrap()
        .send_keys("25")
        .await
        .unwrap();
    c.find(Locator::Id("l1_description"))
        .await
        .unwrap()
        .send_keys("Parking")
        .await
        .unwrap();
    c.find(Locator::Id("l1_unit_price"))
        .await
        .unwrap()
        .send_keys("4,50")
        .await
        .unwrap();
    b.click(Locator::Css("#method option[value=card]")).await;
    b.screenshot("desk-sale").await;
    b.click(Locator::Css("button[value=sell]")).await;
    let flash = b.wait_for(Locator::Css("p.flash")).await;
    assert!(
        flash
            .text()
            .await
            .unwrap()
            .contains("The invoice is issued.")
    );
    let list = app.get("/v1/invoices").await.expect(200).body;
    let sold = list["data"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(sold["totals"]["gross"], 2950, "{sold}");
    b.screenshot("desk-sale-issued").await;
    c.clone().close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_list_comes_a_hundred_at_a_time_and_loses_none() {
    let app = spawn_app().await;
    let g = app.guest("Anna", "Rossi").await;
    let mut numbers = Vec::new();
    for _ in 0..101 {
        numbers.push(sale(&app, &g).await.1);
    }
    let pw = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &pw).await;
    let first = b.get("/invoices?status=issued").await;
    assert_eq!(first.status, 200, "{}", first.text);
    let rows = |html: &str| html.matches("<a href=\"/invoices/inv").count();
    assert_eq!(rows(&first.text), 100, "{}", first.text);
    assert!(first.text.contains("Invoices 1 to 100 of those issued"));
    let at = first.text.find("rel=\"next\"").expect("a next page");
    let start = first.text[..at].rfind("href=\"").unwrap() + 6;
    let next = first.text[start..at]
        .trim_end_matches("\" ")
        .replace("&#38;", "&");
    assert!(next.contains("status=issued"), "{next}");
    let second = b.get(&next).await;
    assert_eq!(second.status, 200, "{}", second.text);
    assert_eq!(rows(&second.text), 1, "{}", second.text);
    assert!(
        second.text.contains("Invoices 101 to 101"),
        "{}",
        second.text
    );
    assert!(second.text.contains(&numbers[100]), "{}", second.text);
    assert!(!second.text.contains("rel=\"next\""));
    assert!(second.text.contains(">First page<"));
    // A cursor that is not ours starts the list again instead of failing.
    let forged = b
        .get("/invoices?status=issued&cursor=nonsense&seen=100")
        .await;
    assert_eq!(forged.status, 200);
    assert_eq!(rows(&forged.text), 100);
}

/// The payment method is changed from the invoice page: refused in place when not one of
/// the list, else changed with a flash; a receptionist without billing sees no form.
#[tokio::test(flavor = "multi_thread")]
async fn the_payment_method_is_changed_from_the_invoice_page() {
    let app = spawn_app().await;
    let g = app.guest("Anna", "Rossi").await;
    let (id, _) = sale(&app, &g).await;
    let password = staff(&app, "marta", "front_desk").await;
    let b = Browser::sign_in(&app, "marta", &password).await;
    let page = b.get(&format!("/invoices/{id}")).await;
    let path = format!("/invoices/{id}/payment-method");
    assert!(
        page.text.contains(&format!("action=\"{path}\"")),
        "{}",
        page.text
    );
    assert!(page.text.contains("Paid another way?"));
    let csrf = Browser::csrf(&page);
    let wrong = b
        .post(&path, &[("csrf", &csrf), ("payment_method", "cheque")])
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.text);
    assert!(
        wrong.text.contains("id=\"payment_method-error\""),
        "{}",
        wrong.text
    );
    let done = b
        .post(&path, &[("csrf", &csrf), ("payment_method", "card")])
        .await;
    assert_eq!(done.status, 303, "{}", done.text);
    let shown = b
        .get(&format!("/invoices/{id}?done=payment-method-changed"))
        .await;
    assert!(
        shown.text.contains("The payment method is changed."),
        "{}",
        shown.text
    );
    assert_eq!(
        app.get(&format!("/v1/invoices/{id}")).await.body["payment_method"],
        "card"
    );
    let hk = staff(&app, "hana", "housekeeping").await;
    let h = Browser::sign_in(&app, "hana", &hk).await;
    let forged = h
        .post(&path, &[("csrf", &csrf), ("payment_method", "cash")])
        .await;
    assert_eq!(forged.status, 403, "{}", forged.text);
}
