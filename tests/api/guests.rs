//! Guests.

use serde_json::json;

use crate::support::{day, spawn_app};

#[tokio::test]
async fn guest_happy_path_with_nested_data() {
    let app = spawn_app().await;
    let body = json!({
        "first_name": "Anna", "last_name": "Rossi", "email": "Anna.Rossi@Example.com", "phone": "+39 055 123 4567",
        "birth_date": "1985-04-12", "gender": "female", "nationality": "IT",
        "birth_place": {"country": "IT", "municipality": "Firenze", "region": "FI"},
        "document": {"type": "id_card", "number": "CA1234567", "issuing_country": "IT", "expiry_date": "2030-01-01"},
        "address": {"line1": "Via Roma 1", "city": "Firenze", "postal_code": "50100", "country": "IT"},
        "notes": "Late arrival"
    });
    let created = app.post("/v1/guests", body.clone()).await.expect(201);
    let id = created.id();
    assert!(id.starts_with("gst_"));
    for key in [
        "first_name",
        "email",
        "birth_date",
        "gender",
        "birth_place",
        "notes",
    ] {
        assert_eq!(created.body[key], body[key], "{key}");
    }
    assert_eq!(created.body["document"]["type"], "id_card");
    assert_eq!(created.body["address"]["line2"], serde_json::Value::Null);
    assert!(created.body["created_at"].as_str().unwrap().ends_with('Z'));

    let got = app.get(&format!("/v1/guests/{id}")).await.expect(200);
    assert_eq!(got.body, created.body);

    let changed = app
        .put_if(
            &format!("/v1/guests/{id}"),
            "\"1\"",
            json!({"last_name": "Bianchi", "notes": null}),
        )
        .await
        .expect(200);
    assert_eq!(changed.body["last_name"], "Bianchi");
    assert!(changed.body["notes"].is_null());
    assert_eq!(
        changed.body["email"], body["email"],
        "absent fields are kept"
    );

    // Sending back what was read (read-only fields included) is accepted.
    let mut round_trip = changed.body.clone();
    round_trip["first_name"] = json!("Annalisa");
    let again = app
        .put(&format!("/v1/guests/{id}"), round_trip)
        .await
        .expect(200);
    assert_eq!(again.body["first_name"], "Annalisa");
    assert_eq!(again.body["version"], 3);
}

#[tokio::test]
async fn guest_rules_list_every_failing_field() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/v1/guests",
            json!({"first_name": "", "email": "not-an-email", "phone": "12", "gender": "x", "nationality": "Italy",
                   "birth_date": "1985-13-01", "document": {"number": 5}, "surname": "typo"}),
        )
        .await
        .problem(422, "validation_failed");
    let fields: Vec<String> = r.fields().into_iter().map(|(f, _)| f).collect();
    for f in [
        "first_name",
        "last_name",
        "email",
        "phone",
        "gender",
        "nationality",
        "birth_date",
        "document.type",
        "document.number",
        "surname",
    ] {
        assert!(
            fields.contains(&f.to_string()),
            "{f} missing from {fields:?}"
        );
    }
    let future = app
        .post(
            "/v1/guests",
            json!({"first_name": "A", "last_name": "B", "birth_date": day(2)}),
        )
        .await;
    assert_eq!(
        future.problem(422, "validation_failed").fields(),
        vec![("birth_date".into(), "in_future".into())]
    );
    let id = app.guest("Anna", "Rossi").await;
    let r = app
        .put(&format!("/v1/guests/{id}"), json!({"first_name": null}))
        .await
        .problem(422, "validation_failed");
    assert_eq!(r.fields(), vec![("first_name".into(), "required".into())]);
    let r = app
        .post("/v1/guests", json!(["not", "an", "object"]))
        .await
        .problem(422, "validation_failed");
    assert_eq!(r.fields()[0].0, "body");
}

#[tokio::test]
async fn guest_filters_and_order() {
    let app = spawn_app().await;
    let rt = app.room_type("DBL", 4).await;
    app.room("1", &rt).await;
    let anna = app.guest("Anna", "Rossi").await;
    let _marco = app.guest("Marco", "Rossi").await;
    let _zoe = app.guest("Zoë", "Abate").await;
    let bob = app
        .post(
            "/v1/guests",
            json!({"first_name": "Bob", "last_name": "Müller", "email": "Bob@Example.COM"}),
        )
        .await
        .id();
    app.post(
        "/v1/reservations",
        json!({"primary_guest_id": anna, "guest_ids": [bob], "room_type_id": rt, "arrival": day(5), "departure": day(6), "adults": 2}),
    )
    .await
    .expect(201);

    let names = |v: Vec<serde_json::Value>| -> Vec<String> {
        v.iter()
            .map(|g| {
                format!(
                    "{} {}",
                    g["first_name"].as_str().unwrap(),
                    g["last_name"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(
        names(app.all("/v1/guests").await),
        vec!["Zoë Abate", "Bob Müller", "Anna Rossi", "Marco Rossi"]
    );
    assert_eq!(
        names(app.all("/v1/guests?name=ROSS").await),
        vec!["Anna Rossi", "Marco Rossi"]
    );
    assert_eq!(
        names(app.all("/v1/guests?name=anna%20rossi").await),
        vec!["Anna Rossi"]
    );
    assert_eq!(
        names(app.all("/v1/guests?name=m%C3%BCller").await),
        vec!["Bob Müller"]
    );
    assert_eq!(
        names(app.all("/v1/guests?email=bob@example.com").await),
        vec!["Bob Müller"]
    );
    let arriving = app
        .all(&format!(
            "/v1/guests?arrival_from={}&arrival_to={}",
            day(5),
            day(5)
        ))
        .await;
    assert_eq!(names(arriving), vec!["Bob Müller", "Anna Rossi"]);
    assert!(
        app.all(&format!("/v1/guests?arrival_from={}", day(6)))
            .await
            .is_empty()
    );
}
