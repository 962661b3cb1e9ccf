//! The hub's test kit: a configuration naming test servers as properties, the
//! `innkeep-hub` binary run as a subprocess, a mixed day of work at a property, and the
//! comparison of the hub's tables with a property's `/v1` lists.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::TestApp;
use super::binary::Killed;
use super::postgres::Postgres;
use super::stay::Hotel;

/// A hub configuration in a temporary directory.
pub struct Hub {
    _dir: tempfile::TempDir,
    pub config: PathBuf,
}

/// An OAuth client of `app` with what the hub needs; returns (id, secret).
pub async fn hub_client(app: &TestApp) -> (String, String) {
    let c = innkeep::service::oauth::create_client(
        app.db(),
        "group hub",
        "events:read guests:read reservations:read invoices:read",
        &["client_credentials".into()],
        &[],
        true,
        None,
    )
    .await
    .expect("hub client");
    (c.client.id, c.secret.expect("secret"))
}

impl Hub {
    /// A hub on database `db` of `pg` reading `properties` (name, server) in pull mode.
    pub async fn new(pg: &Postgres, db: &str, properties: &[(&str, &TestApp)]) -> Hub {
        let url = pg.database(db).await;
        let dir = tempfile::tempdir().expect("tempdir");
        let mut text = format!("[database]\nurl = \"{url}\"\n\n[pull]\ninterval_seconds = 1\n");
        for (name, app) in properties {
            let (id, secret) = hub_client(app).await;
            text.push_str(&format!(
                "\n[[property]]\nname = \"{name}\"\nurl = \"http://{}\"\nclient_id = \"{id}\"\nclient_secret = \"{secret}\"\n",
                app.addr
            ));
        }
        let config = dir.path().join("hub.toml");
        std::fs::write(&config, text).expect("write hub.toml");
        Hub { _dir: dir, config }
    }

    /// A hub on database `db` of `pg` listening for pushes on `port`, with one push-mode
    /// property `name` whose credentials are `name` and `secret`.
    pub async fn push(pg: &Postgres, db: &str, port: u16, name: &str, secret: &str) -> Hub {
        Hub::push_with(pg, db, port, name, secret, "").await
    }

    /// [`Hub::push`] with more lines for its `[push]` section.
    pub async fn push_with(
        pg: &Postgres,
        db: &str,
        port: u16,
        name: &str,
        secret: &str,
        more: &str,
    ) -> Hub {
        let url = pg.database(db).await;
        let dir = tempfile::tempdir().expect("tempdir");
        let text = format!(
            "[database]\nurl = \"{url}\"\n\n[push]\nlisten = \"127.0.0.1:{port}\"\n{more}\n[[property]]\nname = \"{name}\"\nmode = \"push\"\nclient_id = \"{name}\"\nclient_secret = \"{secret}\"\n"
        );
        let config = dir.path().join("hub.toml");
        std::fs::write(&config, text).expect("write hub.toml");
        Hub { _dir: dir, config }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_innkeep-hub"));
        cmd.arg("--config").arg(&self.config).args(args);
        cmd.env(
            "INNKEEP_HUB_LOG",
            std::env::var("INNKEEP_HUB_LOG").unwrap_or("warn".into()),
        );
        cmd
    }

    /// Runs `innkeep-hub ARGS` to the end (off the runtime, so the in-process servers keep
    /// answering); returns whether it succeeded and its standard output.
    pub async fn run(&self, args: &[&str]) -> (bool, String) {
        let mut cmd = self.command(args);
        let out = tokio::task::spawn_blocking(move || cmd.output())
            .await
            .expect("joined")
            .expect("innkeep-hub runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !stderr.trim().is_empty() {
            eprintln!("innkeep-hub {args:?}: {stderr}");
        }
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }

    /// `innkeep-hub sync --json`, which must succeed: the per-property lines.
    pub async fn sync(&self) -> Value {
        let (ok, out) = self.run(&["sync", "--json"]).await;
        let v: Value = serde_json::from_str(&out).expect("sync prints JSON");
        assert!(ok && v["ok"] == true, "sync failed: {v}");
        v
    }

    /// Events ingested for `name` in the last `sync` answer.
    pub fn ingested(sync: &Value, name: &str) -> i64 {
        sync["properties"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {sync}"))["events"]
            .as_i64()
            .unwrap()
    }

    /// `innkeep-hub serve` in the background (killed when dropped).
    pub fn serve(&self) -> Killed {
        Killed(
            self.command(&["serve"])
                .stdout(Stdio::null())
                .spawn()
                .expect("innkeep-hub serve starts"),
        )
    }
}

/// A day and a night of work at a property from `first_day`: four stays in and out with
/// extras and invoices (one by bank transfer, paid later), a booking cancelled, a guest
/// corrected. `h` needs four rooms.
pub async fn busy_day(app: &TestApp, h: &Hotel, first_day: i64, tag: &str) {
    app.set_today(first_day);
    let mut stays = Vec::new();
    for k in 0..4 {
        let g = app.guest(&format!("Guest{k}"), tag).await;
        let r = app
            .reserve(
                &g,
                &h.room_type,
                &super::day(first_day),
                &super::day(first_day + 1),
            )
            .await
            .expect(201)
            .id();
        app.post(
            "/v1/check-in",
            json!({"reservation_id": r, "room_id": h.rooms[k]}),
        )
        .await
        .expect(200);
        app.post(
            &format!("/v1/reservations/{r}/charges"),
            json!({"description": "Minibar", "quantity": k + 1, "unit_price": 450}),
        )
        .await
        .expect(201);
        stays.push(r);
    }
    let g = app.guest("Later", tag).await;
    let later = app
        .reserve(
            &g,
            &h.room_type,
            &super::day(first_day + 30),
            &super::day(first_day + 33),
        )
        .await
        .expect(201)
        .id();
    app.put(
        &format!("/v1/reservations/{later}"),
        json!({"status": "cancelled"}),
    )
    .await
    .expect(200);
    app.put(
        &format!("/v1/guests/{g}"),
        json!({"email": "later@example.com"}),
    )
    .await
    .expect(200);
    app.set_today(first_day + 1);
    for (k, r) in stays.iter().enumerate() {
        let method = if k == 0 { "bank_transfer" } else { "card" };
        let out = app
            .post(
                "/v1/check-out",
                json!({"reservation_id": r, "payment_method": method}),
            )
            .await
            .expect(200);
        if k == 0 {
            let inv = &out.body["invoice"];
            app.post(
                &format!("/v1/invoices/{}/payments", inv["id"].as_str().unwrap()),
                json!({"amount": inv["totals"]["gross"], "method": "bank_transfer"}),
            )
            .await
            .expect(201);
        }
    }
}

/// Asserts that the hub's tables hold exactly what `app`'s lists say for property `name`:
/// the same records, versions, states and invoice totals and lines.
pub async fn assert_mirrors(pg: &Postgres, db: &str, name: &str, app: &TestApp) {
    let client = pg.client(db).await;
    for (list, table, fields) in [
        (
            "/v1/guests",
            "guests",
            "json_build_object('id', id, 'version', version, 'last_name', last_name, 'email', email)",
        ),
        (
            "/v1/reservations",
            "reservations",
            "json_build_object('id', id, 'version', version, 'status', status, 'invoice_id', invoice_id)",
        ),
        (
            "/v1/invoices",
            "invoices",
            "json_build_object('id', id, 'version', version, 'status', status, 'number', number, 'gross', gross, 'paid_amount', paid_amount, 'lines', (SELECT count(*) FROM invoice_lines l WHERE l.property = t.property AND l.invoice_id = t.id), 'line_gross', (SELECT coalesce(sum(gross_amount), 0) FROM invoice_lines l WHERE l.property = t.property AND l.invoice_id = t.id))",
        ),
    ] {
        let mut want: Vec<Value> = app
            .all(list)
            .await
            .iter()
            .map(|r| match table {
                "guests" => json!({"id": r["id"], "version": r["version"], "last_name": r["last_name"], "email": r["email"]}),
                "reservations" => json!({"id": r["id"], "version": r["version"], "status": r["status"], "invoice_id": r["invoice_id"]}),
                _ => json!({"id": r["id"], "version": r["version"], "status": r["status"], "number": r["number"],
                    "gross": r["totals"]["gross"], "paid_amount": r["paid_amount"],
                    "lines": r["lines"].as_array().unwrap().len(),
                    "line_gross": r["lines"].as_array().unwrap().iter().map(|l| l["gross_amount"].as_i64().unwrap()).sum::<i64>()}),
            })
            .collect();
        let rows = client
            .query(
                &format!("SELECT {fields}::jsonb FROM {table} t WHERE property = $1"),
                &[&name],
            )
            .await
            .expect("hub query");
        let mut got: Vec<Value> = rows.iter().map(|r| r.get(0)).collect();
        let key = |v: &Value| v["id"].as_str().unwrap().to_string();
        want.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got.len(), want.len(), "{name}: {table} count");
        assert_eq!(got, want, "{name}: {table} differ from {list}");
    }
}
