//! Moving in: a 10,000-line guests file with bad lines in it (every one reported with its
//! line number; nothing written until the file is clean), then clean, then again (nothing
//! added); reservations checked against the rooms, all or nothing; and the export imports
//! into another innkeep unchanged.

use std::fmt::Write as _;

use crate::support::binary::innkeep;

fn cli(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = innkeep(dir).args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

fn count(dir: &std::path::Path, what: &str) -> usize {
    let (ok, out, err) = cli(dir, &["export", what]);
    assert!(ok, "{err}");
    out.lines().count() - 1
}

fn setup(dir: &std::path::Path) {
    let (ok, _, err) = cli(
        dir,
        &[
            "setup",
            "--no-input",
            "--name",
            "Hotel",
            "--country",
            "IT",
            "--room-type",
            "DBL:Double:2:95:101-102",
            "--admin",
            "owner",
        ],
    );
    assert!(ok, "{err}");
}

#[test]
fn ten_thousand_guests_all_or_nothing_then_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    // An Italian spreadsheet: semicolons, a BOM, its own column names, a column we ignore.
    let mut csv = String::from("\u{feff}Codice;Nome;Cognome;E-mail;Nato il;Fax\n");
    for i in 1..=10_000 {
        let email = match i {
            17 => "not-an-email".to_string(),
            _ => format!("guest{i}@example.com"),
        };
        let last = if i == 4_242 {
            String::new()
        } else {
            format!("Rossi{i}")
        };
        let born = if i == 9_999 {
            "31/12/1980".to_string()
        } else {
            "1980-12-31".to_string()
        };
        writeln!(csv, "C{i};Anna;{last};{email};{born};").unwrap();
    }
    csv.push_str("C10001;Too;Many;a@b.it;1980-01-01;;extra\n");
    let file = dir.path().join("ospiti.csv");
    std::fs::write(&file, &csv).unwrap();
    let f = file.to_str().unwrap();
    let map = [
        "--map",
        "Codice=external_id",
        "--map",
        "Nome=first_name",
        "--map",
        "Cognome=last_name",
        "--map",
        "E-mail=email",
        "--map",
        "Nato il=birth_date",
    ];
    let args = |extra: &[&'static str]| -> Vec<String> {
        ["import", "guests", f]
            .iter()
            .chain(map.iter())
            .chain(extra.iter())
            .map(|s| s.to_string())
            .collect()
    };
    let run = |extra: &[&'static str]| {
        let a = args(extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        cli(dir.path(), &a)
    };

    // The dry run names every bad line and writes nothing; so does the real run.
    for extra in [&["--dry-run"][..], &[][..]] {
        let (ok, out, _) = run(extra);
        assert!(!ok);
        for (line, words) in [
            (18, "email must be an e-mail address"),
            (4_243, "last_name is required"),
            (10_000, "birth_date"),
            (10_002, "has 7 values but the first line names 6 columns"),
        ] {
            assert!(
                out.contains(&format!("line {line}: ")),
                "line {line} missing:\n{out}"
            );
            let said = out
                .lines()
                .find(|l| l.contains(&format!("line {line}: ")))
                .unwrap();
            assert!(said.contains(words), "{said}");
        }
        assert!(
            out.contains("10001 rows, 4 of them bad"),
            "{}",
            &out[..out.len().min(400)]
        );
        assert!(out.contains("Columns not imported (innkeep has no place for them): fax."));
        assert!(out.contains("Nothing was imported."));
        assert_eq!(count(dir.path(), "guests"), 0, "nothing was written");
    }

    // Fixed, it goes in whole; again, it adds nothing.
    let fixed: String = csv
        .lines()
        .filter(|l| !l.starts_with("C10001;"))
        .map(|l| {
            l.replace("not-an-email", "g17@example.com")
                .replace("C4242;Anna;;", "C4242;Anna;Bianchi;")
                .replace("31/12/1980", "1980-12-31")
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&file, fixed).unwrap();
    let (ok, out, err) = run(&["--dry-run"]);
    assert!(
        ok && out.contains("Dry run: all 10000 rows are good"),
        "{out}{err}"
    );
    assert_eq!(count(dir.path(), "guests"), 0);
    let (ok, out, err) = run(&["--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["report"]["created"], 10_000);
    assert_eq!(count(dir.path(), "guests"), 10_000);
    let (ok, out, _) = run(&[]);
    assert!(
        ok && out.contains("Imported 0 new guests") && out.contains("10000 were imported before"),
        "{out}"
    );
    assert_eq!(count(dir.path(), "guests"), 10_000);
}

#[test]
fn reservations_are_checked_against_the_rooms_and_move_to_another_innkeep() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    std::fs::write(
        dir.path().join("g.csv"),
        "external_id,first_name,last_name\n1,Anna,Rossi\n2,Bea,Bianchi\n",
    )
    .unwrap();
    let g = dir.path().join("g.csv");
    assert!(cli(dir.path(), &["import", "guests", g.to_str().unwrap()]).0);
    let r = dir.path().join("r.csv");
    // Two rooms: a third booking of the same nights does not fit, and says which line took them.
    std::fs::write(
        &r,
        "external_id,guest_external_id,room_type,room,arrival,departure,adults,nightly_rate\n\
         R1,1,DBL,101,2030-06-01,2030-06-04,2,95.50\n\
         R2,2,DBL,,2030-06-02,2030-06-05,1,\n\
         R3,2,DBL,,2030-06-03,2030-06-04,1,\n\
         R4,2,DBL,101,2030-05-30,2030-06-02,1,\n\
         R5,9,SGL,,2030-06-03,2030-06-06,1,\n",
    )
    .unwrap();
    let (ok, out, _) = cli(dir.path(), &["import", "reservations", r.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("line 4: No room of type"), "{out}");
    assert!(
        out.contains("line 5: The room is already given to the reservation of line 2"),
        "{out}"
    );
    assert!(
        out.contains("line 6: guest_external_id \"9\" is no guest imported before"),
        "{out}"
    );
    assert_eq!(count(dir.path(), "reservations"), 0);
    let clean: String = std::fs::read_to_string(&r)
        .unwrap()
        .lines()
        .take(3)
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&r, clean).unwrap();
    assert!(cli(dir.path(), &["import", "reservations", r.to_str().unwrap()]).0);
    assert_eq!(count(dir.path(), "reservations"), 2);

    // The export of one innkeep is the import of another.
    let other = tempfile::tempdir().unwrap();
    setup(other.path());
    for what in ["guests", "reservations"] {
        let file = dir.path().join(format!("{what}-out.csv"));
        let (ok, _, err) = cli(dir.path(), &["export", what, "-o", file.to_str().unwrap()]);
        assert!(ok, "{err}");
        let (ok, out, err) = cli(other.path(), &["import", what, file.to_str().unwrap()]);
        assert!(ok, "{out}{err}");
    }
    let (_, theirs, _) = cli(other.path(), &["export", "reservations"]);
    assert!(
        theirs.contains("2030-06-01,2030-06-04,2,0,95.50,EUR"),
        "{theirs}"
    );
}
