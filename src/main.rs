//! The `innkeep` binary: parse the command line and dispatch.

use clap::Parser;

fn main() -> std::process::ExitCode {
    innkeep::cli::run(innkeep::cli::Cli::parse())
}
