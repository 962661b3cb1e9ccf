//! The independent check of every document the simulator receives: the publishers' EN 16931
//! and CIUS-HR rules run by `tests/tools/eracun/validate.mjs` (SaxonJS). One validator runs
//! per test process (`--serve`: the rules loaded once, a file path in and a JSON line out
//! per document), not a node per document. When the rules are not provisioned (see that
//! directory's README) the document is taken unchecked and that is said on stderr, once;
//! with `ERACUN_REQUIRE_RULES=1` it is refused instead.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};

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

/// The validator of this process: running, or why it cannot run.
static VALIDATOR: Mutex<Option<Result<Validator, String>>> = Mutex::new(None);

/// Runs the validator on `xml`.
pub async fn check(xml: String) -> Checked {
    tokio::task::spawn_blocking(move || run(&xml))
        .await
        .unwrap_or_else(|e| Checked::Refused(vec![format!("the validator panicked: {e}")]))
}

fn run(xml: &str) -> Checked {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("einvoice.xml");
    std::fs::write(&file, xml).unwrap();
    let mut held = VALIDATOR.lock().unwrap_or_else(|e| e.into_inner());
    let validator = held.get_or_insert_with(Validator::start);
    let answer = match validator {
        Ok(v) => v.ask(&file.to_string_lossy()),
        Err(why) => return unchecked(why, false),
    };
    match answer {
        Ok(line) => judge(&line),
        Err((why, answered_before)) => {
            let said = unchecked(&why, true);
            // A validator that had been answering starts again for the next document; one
            // that never answered (no rules here) is not started for every document.
            *held = if answered_before {
                None
            } else {
                Some(Err(why))
            };
            said
        }
    }
}

/// A running `validate.mjs --serve`.
struct Validator {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// What it says on stderr, drained as it comes by `drain` so that it never fills the
    /// pipe.
    said: Arc<Mutex<String>>,
    drain: Option<std::thread::JoinHandle<()>>,
    /// Whether it has answered yet.
    answered: bool,
}

impl Validator {
    fn start() -> Result<Validator, String> {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut child = Command::new("node")
            .arg(format!("{root}/tests/tools/eracun/validate.mjs"))
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("node could not run: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let said = Arc::new(Mutex::new(String::new()));
        let drain = child.stderr.take().map(|mut err| {
            let said = said.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = err.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut s = said.lock().unwrap_or_else(|e| e.into_inner());
                    s.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            })
        });
        Ok(Validator {
            child,
            stdin,
            stdout,
            said,
            drain,
            answered: false,
        })
    }

    /// The validator's JSON line about `file`, or why it gave none (what it said on
    /// stderr as it ended) and whether it had answered before.
    fn ask(&mut self, file: &str) -> Result<String, (String, bool)> {
        let mut line = String::new();
        let asked = writeln!(self.stdin, "{file}").and_then(|()| self.stdin.flush());
        if asked.is_ok() && self.stdout.read_line(&mut line).is_ok_and(|n| n > 0) {
            let about: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
            if about["file"] == file {
                self.answered = true;
                return Ok(line);
            }
            let _ = self.child.kill();
            let why = format!("the validator answered about another file: {line}");
            return Err((why, self.answered));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(drain) = self.drain.take() {
            let _ = drain.join();
        }
        let said = self.said.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let why = if said.trim().is_empty() {
            "the validator ended without an answer".into()
        } else {
            said
        };
        Err((why, self.answered))
    }
}

/// A validator's JSON line as a verdict: valid, the fatal failures, or a tool error.
fn judge(line: &str) -> Checked {
    let line: serde_json::Value = serde_json::from_str(line).unwrap_or(serde_json::Value::Null);
    if let Some(error) = line["error"].as_str() {
        return unchecked(error, true);
    }
    if line["valid"] == true {
        return Checked::Valid;
    }
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

/// Unchecked (said on stderr when `say`), or refused under `ERACUN_REQUIRE_RULES=1`.
fn unchecked(why: &str, say: bool) -> Checked {
    if std::env::var("ERACUN_REQUIRE_RULES").as_deref() == Ok("1") {
        return Checked::Refused(vec![format!(
            "the independent validator did not run: {why}"
        )]);
    }
    if say {
        eprintln!(
            "e-invoice simulator: documents are NOT checked by the official rules: {}",
            why.trim()
        );
    }
    Checked::Unchecked
}
