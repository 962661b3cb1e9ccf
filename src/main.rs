//! The `innkeep` binary: parse the command line and dispatch.

use clap::Parser;

fn main() -> std::process::ExitCode {
    // First, while this is the only thread and SQLite is not yet in use.
    let tuned = innkeep::db::before_any_connection();
    debug_assert!(tuned, "SQLite was in use before main");
    innkeep::cli::run(innkeep::cli::Cli::parse())
}
