//! `innkeep setup`: typed at a terminal (a real pseudo-terminal, as a person would), and
//! given as flags by a script; then the front desk signs the new admin in.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::support::Spawn;
use crate::support::binary::innkeep;
use crate::support::desk::Browser;

const BIN: &str = env!("CARGO_BIN_EXE_innkeep");

fn run(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = innkeep(dir).arg("setup").args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

#[tokio::test]
async fn setup_by_flags_then_the_admin_signs_in() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = innkeep(dir.path())
        .args([
            "setup",
            "--name",
            "Hotel Adria",
            "--country",
            "hr",
            "--room-type",
            "DBL:Double room:2:95.00:101-112",
            "--room-type",
            "sgl:Single:1:60:201-204",
            "--admin",
            "owner",
            "--admin-password-stdin",
            "--json",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"correct horse battery\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let done: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(done["done"]["room_types"], 2);
    assert_eq!(done["done"]["rooms"], 16);
    assert!(
        done["password"].is_null(),
        "the typed password is not printed"
    );
    assert!(done["address"].as_str().unwrap().starts_with("http://"));

    // A second run refuses and changes nothing.
    let (ok, _, err) = run(
        dir.path(),
        &[
            "--name",
            "X",
            "--country",
            "HR",
            "--room-type",
            "A:B:1:1:9",
            "--admin",
            "x",
        ],
    );
    assert!(!ok && err.contains("already set up"), "{err}");

    let app = Spawn::new()
        .data_dir(dir.path().to_path_buf())
        .start()
        .await;
    let b = Browser::sign_in(&app, "owner", "correct horse battery").await;
    let rooms = b.get("/admin/rooms").await;
    for text in ["Double room", "Single", "112", "204", "SGL"] {
        assert!(
            rooms.text.contains(text),
            "{text} missing from the rooms page"
        );
    }
    assert!(!rooms.text.contains(">113<"));
    let settings = b.get("/admin/settings").await;
    assert!(settings.text.contains("Hotel Adria"));
    assert!(
        settings.text.contains("Europe/Zagreb"),
        "the country's zone is the default"
    );
    let vat = app.get("/v1/settings").await.expect(200);
    assert_eq!(
        vat.body["default_tax_rate"], 1300,
        "Croatia's VAT on rooms is the default"
    );
    let today = b.get("/").await;
    assert!(
        !today.text.contains("VAT rate on rooms is 0"),
        "{}",
        today.text
    );
}

#[test]
fn bad_flags_name_the_flag_and_the_rule_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "--name",
        "H",
        "--country",
        "IT",
        "--admin",
        "owner",
        "--no-input",
    ];
    let with = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        run(dir.path(), &args)
    };
    for (extra, words) in [
        (&["--room-type", "DBL:Double:2:95:112-101"][..], "backwards"),
        (
            &["--room-type", "DBL:Double:2:ninety:101"][..],
            "not an amount",
        ),
        (
            &["--room-type", "DBL:Double:30:95:101"][..],
            "max_occupancy",
        ),
        (
            &["--room-type", "DBL:Double:2:95"][..],
            "CODE:NAME:GUESTS:RATE:ROOMS",
        ),
        (
            &[
                "--room-type",
                "A:One:2:95:101-103",
                "--room-type",
                "B:Two:2:95:103",
            ][..],
            "room 103 is in two room types",
        ),
        (&[][..], "at least one room type"),
        (
            &["--room-type", "A:One:2:95:1", "--tax-rate", "250"][..],
            "250 %",
        ),
        (
            &["--room-type", "A:One:2:95:1", "--time-zone", "Mars/Base"][..],
            "--time-zone \"Mars/Base\"",
        ),
        (
            &[
                "--room-type",
                "A:One:2:95:1",
                "--registration",
                "it-alloggiati",
            ][..],
            "compliance.registration.username is required",
        ),
        (
            &[
                "--room-type",
                "A:One:2:95:1",
                "--registration",
                "hr-evisitor",
                "--set",
                "compliance.registration.username=hotel1",
                "--set",
                "compliance.registration.password=pw-secret",
            ][..],
            "compliance.registration.facility is required when scheme = \"hr-evisitor\"",
        ),
        (
            &[
                "--room-type",
                "A:One:2:95:1",
                "--seller-name",
                "Sole s.r.l.",
                "--seller-street",
                "Via del Mare 1",
                "--seller-city",
                "Rimini",
                "--seller-vat-id",
                "12345678901",
            ][..],
            "--seller-vat-id must be the partita IVA",
        ),
    ] {
        let (ok, _, err) = with(extra);
        assert!(!ok, "{extra:?} was accepted");
        assert!(err.contains(words), "{extra:?}: {err}");
    }
    let (ok, _, err) = run(dir.path(), &["--country", "IT", "--no-input"]);
    assert!(!ok && err.contains("--name is needed"), "{err}");
    assert!(
        !dir.path().join("innkeep.toml").exists(),
        "no config was left behind"
    );
    // Nothing was set up by any of them: a good run still works.
    let (ok, out, err) = with(&[
        "--room-type",
        "A:One:2:95:1-3",
        "--registration",
        "it-alloggiati",
        "--set",
        "compliance.registration.username=hotel1",
        "--set",
        "compliance.registration.password=pw-secret",
        "--set",
        "compliance.registration.ws_key=key-secret",
        "--set",
        "compliance.registration.dry_run=true",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("1 room type, 3 rooms, and the admin owner"),
        "{out}"
    );
    assert!(
        out.contains("The admin's password (shown only now"),
        "{out}"
    );
    let file = dir.path().join("innkeep.toml");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "it holds passwords");
    }
    let check = innkeep(dir.path())
        .args(["config", "check", "--json"])
        .output()
        .unwrap();
    let check: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let r = &check["config"]["compliance"]["registration"];
    assert_eq!(r["scheme"], "it-alloggiati");
    assert_eq!(r["dry_run"], true);
}

/// Waits for `expect` on the terminal, then types `answer` and Enter.
fn step(p: &mut rexpect::session::PtySession, expect: &str, answer: Option<&str>) {
    p.exp_string(expect)
        .unwrap_or_else(|e| panic!("waiting for {expect:?}: {e}"));
    if let Some(a) = answer {
        p.send_line(a).unwrap();
    }
}

/// Presses one key (a yes/no question takes the key alone, without Enter).
fn key(p: &mut rexpect::session::PtySession, k: &str) {
    p.send(k).unwrap();
    p.flush().unwrap();
}

#[test]
fn setup_through_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(BIN);
    cmd.env_remove("INNKEEP_CONFIG")
        .env("INNKEEP_DATA_DIR", dir.path())
        .env("TERM", "dumb")
        .arg("setup");
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).unwrap();
    step(&mut p, "The property's name", Some("Albergo Roma"));
    step(&mut p, "Country", Some("it"));
    step(&mut p, "Time zone [Europe/Rome]", Some(""));
    step(&mut p, "Currency [EUR]", Some(""));
    step(
        &mut p,
        "The VAT rate on rooms, in percent [10]",
        Some("ten"),
    );
    step(&mut p, "is not a percentage", Some(""));
    step(
        &mut p,
        "Registered name (empty: later)",
        Some("Roma s.r.l."),
    );
    step(&mut p, "Street and number", Some("Via Appia 1"));
    step(&mut p, "Postal code", Some("00100"));
    step(&mut p, "Town or city", Some("Roma"));
    step(&mut p, "VAT number", Some("06363391002"));
    step(&mut p, "must be the partita IVA", Some("06363391001"));
    step(&mut p, "Short code", Some("dbl"));
    step(&mut p, "Name (such as Double room)", Some("Doppia"));
    step(&mut p, "Most guests in one room [2]", Some(""));
    step(&mut p, "Nightly rate", Some("ten euros"));
    step(&mut p, "is not an amount", Some("95,00"));
    step(&mut p, "Room numbers", Some("112-101"));
    step(&mut p, "runs backwards", Some("101-112, 201"));
    step(&mut p, "13 rooms: 101, 102", None);
    step(&mut p, "Another room type?", None);
    key(&mut p, "n");
    step(&mut p, "user name [admin]", Some(""));
    step(&mut p, "password (at least 10", Some("short"));
    step(&mut p, "must be at least 10 characters", None);
    step(&mut p, "password (at least 10", Some("a long password 1"));
    step(&mut p, "Once more", Some("a long password 1"));
    step(&mut p, "Register guests with the police", Some(""));
    step(&mut p, "About to set up:", None);
    step(&mut p, "Doppia (DBL): 13 rooms", None);
    step(&mut p, "Set up innkeep like this?", None);
    key(&mut p, "y");
    step(
        &mut p,
        "innkeep is set up: 1 room type, 13 rooms, and the admin admin.",
        None,
    );
    p.exp_eof().unwrap();

    let list = innkeep(dir.path())
        .args(["users", "list", "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(text.contains("\"admin\""), "{text}");
}
