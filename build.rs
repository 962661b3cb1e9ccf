//! Build script: prepares the committed OpenAPI document (`openapi.json`) for the binary.
//!
//! The server serves that file as it is committed, rather than writing the spec from the
//! code at run time: the code that writes it (every schema's registration and description)
//! was about a megabyte of the binary. A test holds the committed file equal to what the
//! code describes (`tests/api/basics.rs`), so what is served cannot drift from what runs.
//!
//! It writes to `OUT_DIR`:
//! - `packed/openapi.json.gz`: the document, gzip-compressed (about 70 KB instead of 1 MB);
//! - `routes.rs`: its operations as a static table (method, path, required scopes), from
//!   which the server enforces each operation's scopes and answers a 405's `Allow`;
//! - `packed/<path>.gz` for every text in [`PACKED`]: the desk's catalogues, its stylesheet
//!   and scripts (sent compressed as they are), the book, compiled in compressed
//!   (`innkeep::packed`).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The files compiled in compressed: single files, and folders whose Markdown and Fluent
/// files all are (not their subfolders).
const PACKED: &[&str] = &[
    "openapi.json",
    "SECURITY.md",
    "assets/i18n",
    "docs/book/src",
    "docs/api",
    "docs/api/migrations",
    "assets/compliance/it-fatturapa/fatturapa-1.2.3.xsd",
    "assets/desk.css",
    "assets/desk.js",
    "assets/htmx-2.0.11.min.js",
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let out = PathBuf::from(
        std::env::var_os("OUT_DIR")
            .unwrap_or_else(|| panic!("OUT_DIR is not set: run this through cargo")),
    );
    // Written afresh each time, so a file taken off the list or deleted is gone here too.
    let _ = std::fs::remove_dir_all(out.join("packed"));
    for entry in PACKED {
        println!("cargo::rerun-if-changed={entry}");
        for file in files(Path::new(entry)) {
            println!("cargo::rerun-if-changed={}", file.display());
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("cannot read {} as UTF-8: {e}", file.display()));
            let packed = out.join("packed").join(format!("{}.gz", file.display()));
            if let Some(dir) = packed.parent() {
                std::fs::create_dir_all(dir)
                    .unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
            }
            write(&packed, &gzip(text.as_bytes()));
        }
    }
    let spec = std::fs::read_to_string("openapi.json").unwrap_or_else(|e| {
        panic!("openapi.json must be at the repository root (it is committed): {e}")
    });
    write(&out.join("routes.rs"), routes(&spec).as_bytes());
}

/// `entry` itself, or the Markdown and Fluent files in it.
fn files(entry: &Path) -> Vec<PathBuf> {
    if entry.is_file() {
        return vec![entry.to_path_buf()];
    }
    let listed = std::fs::read_dir(entry)
        .unwrap_or_else(|e| panic!("cannot read the folder {}: {e}", entry.display()));
    let mut files: Vec<PathBuf> = listed
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file() && matches!(p.extension().and_then(|x| x.to_str()), Some("md" | "ftl"))
        })
        .collect();
    files.sort();
    files
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let compressed = gz.write_all(bytes).and_then(|()| gz.finish());
    compressed.unwrap_or_else(|e| panic!("cannot compress: {e}"))
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// The methods of an OpenAPI path item (its other keys, such as `parameters`, are not
/// operations).
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// `ROUTES`: every operation of the document as (method, path, scopes), where the scopes
/// are those of its first security requirement (the document's own when the operation
/// names none) and `None` means a public operation.
///
/// A document that does not parse gives a warning and no operations, so every `/v1` call is
/// refused (no operation is let through unguarded) while the build still succeeds: that is
/// what lets `cargo run --example openapi -- openapi.json` write the file afresh.
fn routes(spec: &str) -> String {
    let doc: serde_json::Value = serde_json::from_str(spec).unwrap_or_else(|e| {
        println!("cargo::warning=openapi.json is not JSON ({e}): every /v1 operation will be refused until it is written again");
        serde_json::Value::Null
    });
    let mut out = String::from(
        "/// The committed spec's operations: (method, path under the server's base, the scopes\n\
         /// a token needs, or `None` for a public operation). Written by `build.rs`.\n\
         pub static ROUTES: &[(&str, &str, Option<&[&str]>)] = &[\n",
    );
    let paths = doc["paths"].as_object().into_iter().flatten();
    for (path, item) in paths {
        let operations = item.as_object().into_iter().flatten();
        for (method, op) in operations.filter(|(m, _)| METHODS.contains(&m.as_str())) {
            let scopes = op
                .get("security")
                .or_else(|| doc.get("security"))
                .and_then(|s| s.as_array())
                .and_then(|reqs| reqs.first())
                .and_then(|req| req.as_object())
                .map(|req| {
                    req.values()
                        .flat_map(|v| v.as_array().into_iter().flatten())
                        .filter_map(|s| s.as_str())
                        .map(|s| format!("{s:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                });
            let scopes = scopes.map_or("None".to_string(), |s| format!("Some(&[{s}])"));
            let method = method.to_uppercase();
            let _ = writeln!(out, "    ({method:?}, {path:?}, {scopes}),");
        }
    }
    out.push_str("];\n");
    out
}
