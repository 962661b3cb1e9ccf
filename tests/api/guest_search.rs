//! Guest search by name: the trigram index must find exactly what a plain substring test
//! finds, for any text (quotes, FTS syntax, accents, short terms), with or without accents
//! (`dvorak` finds Dvořák), and follow renames.

use serde_json::{Value, json};

use crate::support::{TestApp, spawn_app};

const NAMES: &[(&str, &str)] = &[
    ("Antonín", "Dvořák"),
    ("Jan", "Wójcik"),
    ("Anna", "Rossi"),
    ("Marco", "Rossini"),
    ("Zoë", "Abate"),
    ("Seán", "O'Brien"),
    ("Jean-Luc", "Picard"),
    ("Ærø", "Ånd"),
    ("Mary \"May\"", "NEAR"),
    ("Bob", "AND OR"),
    ("李", "小龙"),
    ("Ann", "Rossa"),
];

async fn search(app: &TestApp, term: &str) -> Vec<String> {
    let query = serde_urlencoded::to_string([("name", term)]).unwrap();
    let path = format!("/v1/guests?{query}");
    let mut got: Vec<String> = app
        .all(&path)
        .await
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    got.sort();
    got
}

/// Lower case, accents and other scripts in Latin letters.
fn plain(s: &str) -> String {
    deunicode::deunicode(s).to_lowercase()
}

/// What the search promises: "first last" or "last first", as written or in plain letters,
/// contains the term in plain letters, ignoring case and surrounding blanks (a blank term is
/// no filter at all).
fn expected(guests: &[(String, String, String)], term: &str) -> Vec<String> {
    let t = plain(term.trim());
    let mut ids: Vec<String> = guests
        .iter()
        .filter(|(_, f, l)| {
            let (lf, ll) = (f.to_lowercase(), l.to_lowercase());
            let (pf, pl) = (plain(f), plain(l));
            format!("{lf} {ll}\n{ll} {lf}").contains(&t)
                || format!("{pf} {pl}\n{pl} {pf}").contains(&t)
        })
        .map(|(id, _, _)| id.clone())
        .collect();
    ids.sort();
    ids
}

fn terms(guests: &[(String, String, String)]) -> Vec<String> {
    let mut out: Vec<String> = [
        "\"",
        "\"\"",
        "*",
        "ross*",
        "AND",
        "near(",
        "o'b",
        "-luc",
        "an",
        "a",
        "nna ros",
        "rossi anna",
        "ROSSI",
        "ån",
        "dvorak",
        "DVORAK antonin",
        "dvořák",
        "wojcik",
        "wójcik",
        "zoe",
        "小龙",
        "龙 李",
        "zz",
        "xyz",
        "  ",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (_, f, l) in guests {
        let full: Vec<char> = format!("{f} {l}").chars().collect();
        for len in 1..=5.min(full.len()) {
            for start in (0..=full.len() - len).step_by(2) {
                out.push(full[start..start + len].iter().collect());
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn name_search_finds_exactly_the_substrings() {
    let app = spawn_app().await;
    let mut guests = Vec::new();
    for (f, l) in NAMES {
        let g = app
            .post("/v1/guests", json!({"first_name": f, "last_name": l}))
            .await
            .expect(201);
        guests.push((g.id(), f.to_string(), l.to_string()));
    }
    for t in terms(&guests) {
        assert_eq!(search(&app, &t).await, expected(&guests, &t), "term {t:?}");
    }
    // No name holds a control character: a term with one (a line break joining the two
    // name orders, a NUL) is refused, naming the parameter.
    for t in ["ssi\nann", "Y\0Y"] {
        let query = serde_urlencoded::to_string([("name", t)]).unwrap();
        let r = app.get(&format!("/v1/guests?{query}")).await;
        assert_eq!(r.problem(400, "bad_request").fields()[0].0, "name");
    }

    // A rename: the old name is no longer found, the new one is.
    let (id, _, _) = guests[0].clone();
    let got: Value = app.get(&format!("/v1/guests/{id}")).await.expect(200).body;
    let etag = format!("\"{}\"", got["version"]);
    app.put_if(
        &format!("/v1/guests/{id}"),
        &etag,
        json!({"last_name": "Verdi"}),
    )
    .await
    .expect(200);
    guests[0].2 = "Verdi".into();
    for t in ["rossi", "verdi", "anna verdi", "verdi anna", "anna"] {
        assert_eq!(search(&app, t).await, expected(&guests, t), "term {t:?}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_phone_number_finds_its_guest_however_it_is_written() {
    let app = spawn_app().await;
    let ana = app
        .post(
            "/v1/guests",
            json!({"first_name": "Ana", "last_name": "Horvat", "phone": "091 234 5678"}),
        )
        .await
        .expect(201)
        .id();
    let luca = app
        .post(
            "/v1/guests",
            json!({"first_name": "Luca", "last_name": "Bianchi", "phone": "+39 333 123 4567"}),
        )
        .await
        .expect(201)
        .id();
    let by_phone = |typed: &str| {
        let query = serde_urlencoded::to_string([("phone", typed)]).unwrap();
        let app = &app;
        async move {
            app.get(&format!("/v1/guests?{query}")).await.body["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    for typed in ["+385 91 234 5678", "00385912345678", "(091) 234-5678"] {
        assert_eq!(by_phone(typed).await, std::slice::from_ref(&ana), "{typed}");
    }
    assert_eq!(by_phone("333 1234567").await, std::slice::from_ref(&luca));
    assert!(
        by_phone("12345").await.is_empty(),
        "too short to be a number"
    );
    // A changed number is found by the new one only.
    app.put(
        &format!("/v1/guests/{ana}"),
        json!({"phone": "098 765 4321"}),
    )
    .await
    .expect(200);
    assert!(by_phone("091 234 5678").await.is_empty());
    assert_eq!(
        by_phone("+385 98 765 4321").await,
        std::slice::from_ref(&ana)
    );

    // The desk's one search box takes a phone number too.
    let password = crate::support::desk::staff(&app, "marta", "front_desk").await;
    let b = crate::support::desk::Browser::sign_in(&app, "marta", &password).await;
    let page = b.get("/guests?q=%2B39%20333%20123%204567").await;
    assert!(page.text.contains("Luca Bianchi"), "{}", page.text);
    assert!(!page.text.contains("Ana Horvat"), "{}", page.text);
}
