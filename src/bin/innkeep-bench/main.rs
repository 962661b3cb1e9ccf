//! `innkeep-bench`: seeds a fresh data directory, measures same-run rusqlite baselines,
//! then drives the real `innkeep` server over HTTP with concurrent clients holding real
//! tokens, and prints each operation next to its baseline.
//!
//! `cargo run --release --bin innkeep-bench -- [--reservations N] [--guests N]
//! [--clients C] [--seconds S] [--json]`

// A developer's measuring tool, not the server: it stops at the first thing that goes wrong.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod baseline;
mod load;
mod ops;
mod pages;
mod seed;
mod server;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use serde_json::json;

use load::Stats;

/// Load benchmark of innkeep against same-run baselines.
#[derive(Parser)]
#[command(name = "innkeep-bench", version)]
struct Args {
    /// Reservations to seed (ten years of finished stays).
    #[arg(long, default_value_t = 1_000_000)]
    reservations: u64,
    /// Guests to seed.
    #[arg(long, default_value_t = 300_000)]
    guests: u64,
    /// Rooms to seed, over four room types.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(4..=2000))]
    rooms: u64,
    /// Concurrent HTTP clients.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=512))]
    clients: u64,
    /// Seconds per measured operation.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Keep the data directory (it is printed) instead of deleting it.
    #[arg(long)]
    keep: bool,
}

/// One row of the report.
struct Row {
    name: &'static str,
    stats: Stats,
    baseline: &'static str,
    baseline_stats: Stats,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.guests == 0 || args.seconds <= 0.0 {
        eprintln!("innkeep-bench: --guests must be at least 1 and --seconds more than 0");
        return ExitCode::from(2);
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("innkeep-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn progress(args: &Args, what: &str) {
    if !args.json {
        eprintln!("... {what}");
    }
}

fn run(args: &Args) -> Result<(), String> {
    let bin = server::binary()?;
    let dir = std::env::temp_dir().join(format!("innkeep-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = measure(args, &bin, &dir);
    if args.keep {
        eprintln!("data kept in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

fn measure(args: &Args, bin: &std::path::Path, dir: &std::path::Path) -> Result<(), String> {
    let secs = args.seconds;
    let clients = args.clients as usize;
    server::migrate(bin, dir)?;
    let db: PathBuf = dir.join(innkeep::db::DB_FILE);
    progress(args, "seeding");
    let t = Instant::now();
    let data = seed::seed(&db, args.reservations, args.guests, args.rooms)
        .map_err(|e| format!("seeding: {e}"))?;
    let seed_secs = t.elapsed().as_secs_f64();

    progress(args, "baselines through rusqlite");
    let inserts = baseline::durable_inserts(&db, secs);
    let span = (chrono::Utc::now().date_naive() - data.first_arrival).num_days();
    let arrivals_base = baseline::arrivals(&db, secs, data.first_arrival, span);
    let search_base = baseline::guest_search(&db, secs, &data.last_names);

    progress(args, "starting the server");
    let srv = server::Server::start(bin, dir)?;
    std::thread::sleep(std::time::Duration::from_secs(1));
    let rss_idle = srv.rss_kb();
    let token = server::token(bin, dir, &srv.base)?;
    let client = load::Client::new(&srv.base, &token);

    progress(args, "the load generator's ceiling (GET /health)");
    let ceiling = load::run(&client, clients, secs.min(3.0), None, ops::health).stats();
    progress(args, "create reservation");
    let create = load::run(&client, clients, secs, None, |i| ops::create(&data, i)).stats();
    progress(args, "list arrivals for a date");
    let list = load::run(&client, clients, secs, None, |i| {
        ops::arrivals(data.first_arrival, span, i)
    })
    .stats();
    progress(args, "guest search by name");
    let search = load::run(&client, clients, secs, None, |i| ops::search(&data, i)).stats();
    progress(args, "check-in and check-out, a round per room");
    let (check_in, check_out) = ops::stays(&client, clients, secs, &data);
    progress(args, "the desk's pages at 1 and 8 clients");
    let session = pages::session(bin, dir, &srv.base)?;
    let busy = data.first_arrival + chrono::Days::new(1800);
    let page_times = pages::measure(&srv.base, &session, secs.min(5.0), &data.sample, busy);
    let rss_after = srv.rss_kb();
    let startup_ms = srv.startup.as_secs_f64() * 1000.0;
    srv.stop();

    let durable = "durable single-row insert (rusqlite)";
    let rows = [
        row("create reservation", create, durable, &inserts),
        row(
            "list arrivals for a date",
            list,
            "store arrivals query (rusqlite)",
            &arrivals_base,
        ),
        row(
            "guest search by name",
            search,
            "store name search (rusqlite)",
            &search_base,
        ),
        row("check-in", check_in, durable, &inserts),
        row("check-out with invoice", check_out, durable, &inserts),
    ];
    let binary_bytes = std::fs::metadata(bin).map(|m| m.len()).unwrap_or(0);
    let report = json!({
        "dataset": {"reservations": args.reservations, "guests": args.guests,
            "rooms": args.rooms, "clients": clients, "seconds": secs,
            "seed_seconds": round(seed_secs)},
        "results": rows.iter().map(|r| json!({
            "name": r.name, "rps": round(r.stats.rps), "p50_ms": round(r.stats.p50_ms),
            "p99_ms": round(r.stats.p99_ms), "requests": r.stats.count, "errors": r.stats.errors,
            "baseline": r.baseline, "baseline_rps": round(r.baseline_stats.rps),
            "ratio": round(r.stats.rps / r.baseline_stats.rps.max(1e-9)),
        })).collect::<Vec<_>>(),
        "pages": page_times.iter().map(|p| json!({
            "name": p.name,
            "one_client": {"p50_ms": round(p.one.p50_ms), "p99_ms": round(p.one.p99_ms),
                "rps": round(p.one.rps), "errors": p.one.errors},
            "eight_clients": {"p50_ms": round(p.eight.p50_ms), "p99_ms": round(p.eight.p99_ms),
                "rps": round(p.eight.rps), "errors": p.eight.errors},
        })).collect::<Vec<_>>(),
        "generator_ceiling": {"name": "GET /health", "rps": round(ceiling.rps),
            "p50_ms": round(ceiling.p50_ms), "p99_ms": round(ceiling.p99_ms)},
        "rss_idle_kb": rss_idle,
        "rss_after_kb": rss_after,
        "binary_bytes": binary_bytes,
        "startup_ms": round(startup_ms),
    });
    if args.json {
        println!("{report}");
    } else {
        print_table(&report);
    }
    let errors: usize = rows.iter().map(|r| r.stats.errors).sum::<usize>()
        + page_times
            .iter()
            .map(|p| p.one.errors + p.eight.errors)
            .sum::<usize>();
    if errors > 0 {
        return Err(format!("{errors} requests got an unexpected answer"));
    }
    Ok(())
}

fn row(name: &'static str, stats: Stats, baseline: &'static str, base: &Stats) -> Row {
    Row {
        name,
        stats,
        baseline,
        baseline_stats: base.clone(),
    }
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn print_table(r: &serde_json::Value) {
    let d = &r["dataset"];
    println!(
        "innkeep-bench: {} reservations, {} guests, {} rooms; {} clients, {} s per operation \
         (seeded in {} s)\n",
        d["reservations"], d["guests"], d["rooms"], d["clients"], d["seconds"], d["seed_seconds"]
    );
    println!(
        "{:<26} {:>9} {:>8} {:>8}  {:<38} {:>10} {:>7}",
        "operation", "req/s", "p50 ms", "p99 ms", "baseline (same run)", "base/s", "ratio"
    );
    for x in r["results"].as_array().into_iter().flatten() {
        println!(
            "{:<26} {:>9.1} {:>8.2} {:>8.2}  {:<38} {:>10.1} {:>7.2}",
            x["name"].as_str().unwrap_or(""),
            x["rps"].as_f64().unwrap_or(0.0),
            x["p50_ms"].as_f64().unwrap_or(0.0),
            x["p99_ms"].as_f64().unwrap_or(0.0),
            x["baseline"].as_str().unwrap_or(""),
            x["baseline_rps"].as_f64().unwrap_or(0.0),
            x["ratio"].as_f64().unwrap_or(0.0),
        );
    }
    println!(
        "\n{:<40} {:>12} {:>12} {:>12} {:>12}",
        "desk page", "1: p50 ms", "1: p99 ms", "8: p50 ms", "8: p99 ms"
    );
    for p in r["pages"].as_array().into_iter().flatten() {
        let (one, eight) = (&p["one_client"], &p["eight_clients"]);
        println!(
            "{:<40} {:>12.2} {:>12.2} {:>12.2} {:>12.2}",
            p["name"].as_str().unwrap_or(""),
            one["p50_ms"].as_f64().unwrap_or(0.0),
            one["p99_ms"].as_f64().unwrap_or(0.0),
            eight["p50_ms"].as_f64().unwrap_or(0.0),
            eight["p99_ms"].as_f64().unwrap_or(0.0),
        );
    }
    let c = &r["generator_ceiling"];
    println!(
        "\nload generator ceiling (GET /health): {} req/s, p50 {} ms, p99 {} ms",
        c["rps"], c["p50_ms"], c["p99_ms"]
    );
    println!(
        "server RSS idle {} KiB, after load {} KiB; binary {} bytes; ready {} ms after start",
        r["rss_idle_kb"], r["rss_after_kb"], r["binary_bytes"], r["startup_ms"]
    );
    println!("figures are from a shared machine: compare the ratios, not the absolute numbers");
}
