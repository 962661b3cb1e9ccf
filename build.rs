//! Build script: prepares the committed OpenAPI document (`openapi.json`) for the binary.
//!
//! The server serves that file as it is committed, rather than writing the spec from the
//! code at run time: the code that writes it (every schema's registration and description)
//! was about a megabyte of the binary. A test holds the committed file equal to what the
//! code describes (`tests/api/basics.rs`), so what is served cannot drift from what runs.
//!
//! Two files are written to `OUT_DIR`:
//! - `openapi.json.gz`: the document, gzip-compressed (about 70 KB instead of 1 MB);
//! - `routes.rs`: its operations as a static table (method, path, required scopes), from
//!   which the server enforces each operation's scopes and answers a 405's `Allow`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=openapi.json");
    println!("cargo::rerun-if-changed=build.rs");
    let spec = std::fs::read_to_string("openapi.json").unwrap_or_else(|e| {
        panic!("openapi.json must be at the repository root (it is committed): {e}")
    });
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());

    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let compressed = gz.write_all(spec.as_bytes()).and_then(|()| gz.finish());
    let compressed = compressed.unwrap_or_else(|e| panic!("cannot compress openapi.json: {e}"));
    write(&out.join("openapi.json.gz"), &compressed);
    write(&out.join("routes.rs"), routes(&spec).as_bytes());
}

fn write(path: &std::path::Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// `ROUTES`: every operation of the document as (method, path, scopes), where the scopes
/// are those of its first security requirement and `None` means a public operation.
fn routes(spec: &str) -> String {
    let doc: serde_json::Value =
        serde_json::from_str(spec).unwrap_or_else(|e| panic!("openapi.json is not JSON: {e}"));
    let mut out = String::from(
        "/// The committed spec's operations: (method, path under the server's base, the scopes\n\
         /// a token needs, or `None` for a public operation). Written by `build.rs`.\n\
         pub static ROUTES: &[(&str, &str, Option<&[&str]>)] = &[\n",
    );
    let paths = doc["paths"].as_object().into_iter().flatten();
    for (path, item) in paths {
        for (method, op) in item.as_object().into_iter().flatten() {
            let scopes = op["security"]
                .as_array()
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
