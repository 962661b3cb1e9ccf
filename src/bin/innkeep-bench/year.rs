//! `innkeep-bench year`: the year in a box, run in release. The replay lives with the
//! integration tests (`tests/year`), because it needs the national authorities' simulators
//! and drives a server running in its own process, whose clock it moves: the `innkeep`
//! binary itself has no way to change its clock. This command builds and runs that test
//! with optimisations and the size (and country) asked for, one country after the other,
//! and passes its report through.

use std::process::{Command, ExitCode};

/// The year's size.
#[derive(clap::Args)]
pub struct YearArgs {
    /// Rooms in the simulated hotel.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(4..=2000))]
    rooms: u64,
    /// Days to simulate.
    #[arg(long, default_value_t = 365, value_parser = clap::value_parser!(u64).range(1..=1100))]
    days: u64,
    /// Seed of the guests' choices (the same seed makes the same requests; bookings racing
    /// for a last room may be decided in another order).
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// The hotel's country: `hr` (eVisitor, the CIS, moj-eRačun) or `it` (Alloggiati Web,
    /// the cash register, SdI); both, one after the other, when left out.
    #[arg(long, value_parser = ["hr", "it"])]
    country: Option<String>,
}

/// Runs `cargo test --release --test year` in this source tree with the size in the
/// environment; its exit status is the command's.
pub fn run(args: &YearArgs) -> ExitCode {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!(
        "... building the year in a box in release and simulating {} days of a {}-room hotel",
        args.days, args.rooms
    );
    let status = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["test", "--release", "--test", "year", "--"])
        .args(match args.country.as_deref() {
            Some("hr") => vec!["croatian"],
            Some("it") => vec!["italian"],
            _ => vec!["year_in_a_box"],
        })
        .args(["--nocapture", "--test-threads=1"])
        .env("INNKEEP_YEAR_DAYS", args.days.to_string())
        .env("INNKEEP_YEAR_ROOMS", args.rooms.to_string())
        .env("INNKEEP_YEAR_SEED", args.seed.to_string())
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => {
            eprintln!("innkeep-bench year: the year did not balance or did not run ({s})");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("innkeep-bench year: cannot run cargo ({e}); run it from the source tree");
            ExitCode::FAILURE
        }
    }
}
