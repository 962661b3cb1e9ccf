//! The independent check of every document the simulator receives: the publishers' EN 16931
//! and CIUS-HR rules run by `tests/tools/eracun/validate.mjs` (SaxonJS). When the rules are
//! not provisioned (see that directory's README) the document is taken unchecked and that
//! is said on stderr; with `ERACUN_REQUIRE_RULES=1` it is refused instead.

use std::process::Command;

/// What the independent validator said of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// The rules accept it.
    Valid,
    /// The rules refuse it: `[rule] text` per fatal failure.
    Refused(Vec<String>),
    /// The rules are not provisioned here.
    Unchecked,
}

/// Runs the validator on `xml`.
pub async fn check(xml: String) -> Checked {
    tokio::task::spawn_blocking(move || run(&xml))
        .await
        .unwrap_or_else(|e| Checked::Refused(vec![format!("the validator panicked: {e}")]))
}

fn run(xml: &str) -> Checked {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("einvoice.xml");
    std::fs::write(&file, xml).unwrap();
    let out = Command::new("node")
        .arg(format!("{root}/tests/tools/eracun/validate.mjs"))
        .arg(&file)
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return unchecked(&format!("node could not run: {e}")),
    };
    match out.status.code() {
        Some(0) => Checked::Valid,
        Some(1) => {
            let line: serde_json::Value =
                serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
            let failures = line["failures"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|f| !matches!(f["flag"].as_str(), Some("warning" | "information")))
                .map(|f| {
                    format!(
                        "[{}] {}",
                        f["id"].as_str().unwrap_or("?"),
                        f["text"].as_str().unwrap_or("")
                    )
                })
                .collect();
            Checked::Refused(failures)
        }
        _ => unchecked(&String::from_utf8_lossy(&out.stderr)),
    }
}

fn unchecked(why: &str) -> Checked {
    if std::env::var("ERACUN_REQUIRE_RULES").as_deref() == Ok("1") {
        return Checked::Refused(vec![format!(
            "the independent validator did not run: {why}"
        )]);
    }
    eprintln!(
        "e-invoice simulator: the document was NOT checked by the official rules: {}",
        why.trim()
    );
    Checked::Unchecked
}
