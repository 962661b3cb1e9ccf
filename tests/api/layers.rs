//! The floor plan (ARCHITECTURE.md), checked on the source: a module never imports from a
//! layer above it. `domain` uses nothing of ours; `model` uses no storage, adapter or edge;
//! `store` and `db` use nothing of `service`, `api`, `jobs` or `compliance` (the circle
//! `store` ↔ `compliance` is gone); `compliance` adapters do no I/O of their own, so they use
//! neither `store` nor `db`, nor do the channel managers' (`channel`); `service` uses nothing of `api`, `jobs` or `cli`; the queue
//! (`jobs`) calls services, never the HTTP layer; `auth` (keys, tokens, secrets) sits below
//! the services and the running server (`app`; its key directory is made through `durable`),
//! and its HTTP edge lives in `api::oauth`; the HTTP layer (`api`) never holds
//! the database: it hands `service::Services` and the acting principal to the use cases.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each layer and the top-level modules it must not use.
const RULES: &[(&str, &[&str])] = &[
    (
        "domain",
        &[
            "api",
            "app",
            "auth",
            "channel",
            "cli",
            "clock",
            "compliance",
            "config",
            "db",
            "error",
            "ids",
            "jobs",
            "model",
            "outbound",
            "service",
            "store",
            "templates",
        ],
    ),
    (
        "model",
        &[
            "service",
            "api",
            "jobs",
            "compliance",
            "store",
            "db",
            "auth",
            "cli",
        ],
    ),
    (
        "store",
        &["service", "api", "jobs", "compliance", "auth", "cli"],
    ),
    (
        "db",
        &[
            "service",
            "api",
            "jobs",
            "compliance",
            "store",
            "auth",
            "cli",
        ],
    ),
    (
        "compliance",
        &["service", "api", "jobs", "store", "db", "auth", "cli"],
    ),
    (
        "channel",
        &[
            "service",
            "api",
            "jobs",
            "store",
            "db",
            "auth",
            "cli",
            "compliance",
        ],
    ),
    (
        "printed",
        &[
            "service", "api", "jobs", "store", "db", "auth", "cli", "desk",
        ],
    ),
    ("service", &["api", "jobs", "cli"]),
    ("jobs", &["api", "cli"]),
    ("auth", &["api", "app", "service", "jobs", "cli"]),
    ("api", &["db", "jobs", "cli"]),
    ("desk", &["db", "jobs", "cli", "store", "api"]),
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules of ours a source text names: `crate::x` and `use crate::{x, ...}`,
/// outside comments.
fn uses(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let name = item.trim().split("::").next().unwrap_or("").trim();
                    if !name.is_empty() {
                        found.insert(name.to_string());
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.insert(name);
            }
        }
    }
    found
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut broken = Vec::new();
    for (layer, forbidden) in RULES {
        let mut paths = Vec::new();
        let dir = src.join(layer);
        if dir.is_dir() {
            files(&dir, &mut paths);
        }
        let single = src.join(format!("{layer}.rs"));
        if single.is_file() {
            paths.push(single);
        }
        assert!(!paths.is_empty(), "no sources for layer {layer}");
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            for name in uses(&text) {
                if forbidden.contains(&name.as_str()) {
                    broken.push(format!(
                        "{} uses crate::{name}",
                        path.strip_prefix(&src).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "imports against the floor plan:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_reader_finds_plain_grouped_and_nested_paths() {
    let text = "use crate::api::input::FromJson;\nuse crate::{db::Db, service};\n\
                let x = crate::jobs::run(); // crate::cli is only mentioned here\n";
    let found: Vec<String> = uses(text).into_iter().collect();
    assert_eq!(found, ["api", "db", "jobs", "service"]);
}

/// The HTTP layer holds `service::Services`, never the database: no handler reaches
/// through the context for it.
#[test]
fn the_http_layer_never_reaches_for_the_database() {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/api"),
        &mut paths,
    );
    let reaching: Vec<String> = paths
        .iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .any(|l| l.split("//").next().unwrap_or("").contains(".db()"))
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(reaching.is_empty(), "{reaching:?}");
}

/// Test modules share fixtures through `support/` only, never by importing each other.
#[test]
fn test_modules_import_only_the_support_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/api");
    let mut sideways = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".rs") || name == "main.rs" || name == "layers.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for used in uses(&text) {
            if used != "support" {
                sideways.push(format!("{name} uses crate::{used}"));
            }
        }
    }
    assert!(sideways.is_empty(), "{sideways:?}");
}
