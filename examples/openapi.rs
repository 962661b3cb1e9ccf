//! Writes the OpenAPI document as the code describes it, to regenerate the committed
//! `openapi.json` after a change to the API: `cargo run --example openapi > openapi.json`.
//! (`innkeep openapi` prints the committed file, the one the server serves.)

use std::io::Write;

fn main() {
    // A closed pipe is not an error worth a panic.
    let _ = writeln!(std::io::stdout(), "{}", innkeep::api::spec_json());
}
