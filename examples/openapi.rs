//! Writes the OpenAPI document as the code describes it, to regenerate the committed
//! `openapi.json` after a change to the API: `cargo run --example openapi -- openapi.json`.
//! (`innkeep openapi` prints the committed file, the one the server serves.)
//!
//! It writes the file itself, through a temporary file renamed into place, rather than to
//! standard output: a shell's `> openapi.json` would empty the file before cargo builds,
//! and the build reads it (`build.rs`). Without a path it prints the document.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut spec = innkeep::api::spec_json();
    spec.push('\n');
    let Some(path) = std::env::args_os().nth(1) else {
        // A closed pipe is not an error worth a panic.
        let _ = std::io::stdout().write_all(spec.as_bytes());
        return ExitCode::SUCCESS;
    };
    let path = std::path::PathBuf::from(path);
    let mut staged = path.clone().into_os_string();
    staged.push(".new");
    let written = std::fs::write(&staged, &spec).and_then(|()| std::fs::rename(&staged, &path));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
