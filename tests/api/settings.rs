//! `GET/PUT /v1/settings`.

use serde_json::json;

use crate::support::spawn_app;

#[tokio::test]
async fn settings_have_defaults_and_change_with_if_match() {
    let app = spawn_app().await;
    let s = app.get("/v1/settings").await.expect(200);
    assert_eq!(s.body["time_zone"], "UTC");
    assert_eq!(s.body["currency"], "EUR");
    assert_eq!(s.body["invoice_series"], "{year}");
    assert_eq!(s.header("etag").as_deref(), Some("\"1\""));
    assert_eq!(
        s.body["compliance"],
        json!({"registration": "none", "fiscal": "none"})
    );
    let mut read_back = s.body.clone();
    read_back["name"] = json!("Read back");
    app.put("/v1/settings", read_back)
        .await
        .expect(200)
        .header("etag")
        .expect("the read-only compliance field may be sent back");

    let changed = app
        .put_if(
            "/v1/settings",
            "\"2\"",
            json!({"name": "Hotel Mare", "time_zone": "Europe/Rome", "country": "IT",
                   "city_tax": {"amount_per_person_night": 300, "max_nights": 7, "exempt_under_age": 14}}),
        )
        .await
        .expect(200);
    assert_eq!(changed.body["name"], "Hotel Mare");
    assert_eq!(changed.body["city_tax"]["amount_per_person_night"], 300);
    assert_eq!(
        changed.body["currency"], "EUR",
        "absent fields keep their value"
    );
    assert_eq!(changed.header("etag").as_deref(), Some("\"3\""));

    app.put_if("/v1/settings", "\"1\"", json!({"name": "Stale"}))
        .await
        .problem(412, "precondition_failed");
    let cleared = app
        .put("/v1/settings", json!({"city_tax": null}))
        .await
        .expect(200);
    assert!(cleared.body["city_tax"].is_null());
}

#[tokio::test]
async fn bad_settings_list_every_field() {
    let app = spawn_app().await;
    let r = app
        .put(
            "/v1/settings",
            json!({"time_zone": "Mars/Base", "currency": "EURO", "country": "XX", "default_tax_rate": -1,
                   "name": null, "invoice_series": "{month}"}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    for f in ["currency", "country", "default_tax_rate"] {
        assert!(
            fields.contains(&f.to_string()),
            "{f} missing from {fields:?}"
        );
    }
    assert_eq!(
        app.get("/v1/settings").await.body["version"],
        1,
        "nothing changed"
    );
    let r = app
        .put(
            "/v1/settings",
            json!({"time_zone": "Mars/Base", "name": null}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    assert!(
        fields.contains(&"time_zone".to_string()) && fields.contains(&"name".to_string()),
        "{fields:?}"
    );
}
