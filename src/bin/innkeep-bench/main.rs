//! `innkeep-bench`: seeds a fresh data directory, measures a bare poem + rusqlite server on
//! it (the baseline, in the same run), then drives the real `innkeep` server over HTTP with
//! concurrent clients holding real tokens, and prints each operation next to the baseline:
//! throughput, latency, and the server's CPU time per request.
//!
//! `cargo run --release --bin innkeep-bench -- [--reservations N] [--guests N]
//! [--clients C] [--seconds S] [--json]`; `innkeep-bench year [--rooms 120]` replays a
//! hotel's year (see `year`); `innkeep-bench hub` measures the group hub (see `hub`).

// A developer's measuring tool, not the server: it stops at the first thing that goes wrong.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod bare;
mod hub;
mod load;
mod ops;
mod pages;
mod report;
mod seed;
mod server;
mod webhooks;
mod year;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use serde_json::json;

use load::{Client, Stats, charged};
use server::Server;

/// Load benchmark of innkeep against a bare server measured in the same run.
#[derive(Parser)]
#[command(
    name = "innkeep-bench",
    version,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    args: Args,
}

#[derive(Subcommand)]
enum Command {
    /// The bare baseline server (the benchmark starts it itself).
    #[command(hide = true)]
    Bare {
        /// The database file.
        #[arg(long)]
        db: PathBuf,
        /// Address to listen on.
        #[arg(long)]
        listen: String,
    },
    /// A simulated year of a hotel through the API, the desk and the national simulators,
    /// ending in checks that the books balance (builds and runs `tests/year` in release).
    Year(year::YearArgs),
    /// The group hub's ingest rate into PostgreSQL and its lag behind two properties under
    /// steady load (needs PostgreSQL: `--database URL`, or initdb to make a throw-away one).
    Hub(hub::HubArgs),
}

/// The load benchmark's settings.
#[derive(clap::Args)]
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
    /// Also write the figures as the book's chapter (docs/book/src/figures.md).
    #[arg(long, value_name = "FILE")]
    markdown: Option<std::path::PathBuf>,
}

/// One row of the report.
struct Row {
    name: &'static str,
    stats: Stats,
    baseline: &'static str,
    baseline_stats: Stats,
    /// The WAL file's size after the operation's load, bytes.
    wal_bytes: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Bare { db, listen }) = &cli.command {
        return match bare::serve(db, listen) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("innkeep-bench bare: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(Command::Year(year)) = &cli.command {
        return year::run(year);
    }
    if let Some(Command::Hub(h)) = &cli.command {
        return match hub::run(h) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("innkeep-bench hub: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let args = cli.args;
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

/// The WAL file's size now.
fn wal_bytes(dir: &Path) -> u64 {
    std::fs::metadata(dir.join(format!("{}-wal", innkeep::db::DB_FILE))).map_or(0, |m| m.len())
}

fn measure(args: &Args, bin: &Path, dir: &Path) -> Result<(), String> {
    let secs = args.seconds;
    let clients = args.clients as usize;
    let pinning = server::pin();
    server::migrate(bin, dir)?;
    let db: PathBuf = dir.join(innkeep::db::DB_FILE);
    progress(args, "seeding");
    let t = Instant::now();
    let data = seed::seed(&db, args.reservations, args.guests, args.rooms)
        .map_err(|e| format!("seeding: {e}"))?;
    let seed_secs = t.elapsed().as_secs_f64();
    let span = (chrono::Utc::now().date_naive() - data.first_arrival).num_days();

    progress(args, "the bare baseline server (poem + rusqlite)");
    let bare = Server::start_bare(dir)?;
    let c = Client::new(&bare.base, "");
    let run = |f: &(dyn Fn(usize) -> load::Call + Sync)| {
        charged(&bare, || load::run(&c, clients, secs, None, f)).stats()
    };
    let bare_create = run(&|i| ops::create(&data, i));
    let bare_list = run(&|i| ops::arrivals(data.first_arrival, span, i));
    let bare_search = run(&|i| ops::search(&data, i));
    let bare_in = run(&|i| ops::bare_stay("/v1/check-in", &data, i));
    let bare_out = run(&|i| ops::bare_stay("/v1/check-out", &data, i));
    bare.stop();
    let conn = innkeep::db::open_writable(&db).map_err(|e| e.to_string())?;
    for table in bare::TABLES {
        conn.execute_batch(&format!("DROP TABLE {table}"))
            .map_err(|e| e.to_string())?;
    }
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .map_err(|e| e.to_string())?;
    drop(conn);

    progress(args, "starting innkeep");
    let srv = Server::start(bin, dir)?;
    std::thread::sleep(std::time::Duration::from_secs(1));
    let rss_idle = srv.rss_kb();
    let token = server::token(bin, dir, &srv.base)?;
    let client = Client::new(&srv.base, &token);
    let run = |f: &(dyn Fn(usize) -> load::Call + Sync)| {
        let stats = charged(&srv, || load::run(&client, clients, secs, None, f)).stats();
        (stats, wal_bytes(dir))
    };

    progress(args, "the load generator's ceiling (GET /health)");
    let ceiling = load::run(&client, clients, secs.min(3.0), None, ops::health).stats();
    progress(args, "create reservation");
    let (create, wal_create) = run(&|i| ops::create(&data, i));
    progress(args, "list arrivals for a date");
    let (list, wal_list) = run(&|i| ops::arrivals(data.first_arrival, span, i));
    progress(args, "guest search by name");
    let (search, wal_search) = run(&|i| ops::search(&data, i));
    progress(
        args,
        "offers for a 14-night stay (every plan of every room type)",
    );
    ops::plans(&client, &data)?;
    let (offers, wal_offers) = run(&ops::offers);
    progress(
        args,
        "offers and a month's occupancy, one and eight at a time",
    );
    let months = (span / 30).max(1);
    let first = data.first_arrival;
    let latency = pages::timed(
        &srv,
        &client,
        secs.min(5.0),
        vec![
            (
                "offers: every plan of every room type, 14 nights",
                Box::new(|i| ops::offers(i).path),
            ),
            (
                "occupancy report, a month",
                Box::new(move |i| ops::report("occupancy", first, months, i).path),
            ),
        ],
    );
    progress(
        args,
        "the reports of a month (occupancy, revenue, payments, ISTAT)",
    );
    let (occupancy, wal_reports) =
        run(&|i| ops::report("occupancy", data.first_arrival, months, i));
    let (revenue, _) = run(&|i| ops::report("revenue", data.first_arrival, months, i));
    let (payments, _) = run(&|i| ops::report("payments", data.first_arrival, months, i));
    let (istat, _) = run(&|i| ops::report("istat", data.first_arrival, months, i));
    let (calendar, _) = run(&|i| ops::report("calendar", data.first_arrival, months, i));
    progress(args, "webhook delivery to a loopback receiver");
    let hooks = webhooks::measure(&client, clients, &data, 200, 2000)?;
    progress(args, "check-in and check-out, a round per room");
    let (check_in, check_out) = ops::stays(&srv, &client, clients, secs, &data);
    let wal_stays = wal_bytes(dir);
    progress(args, "the desk's pages at 1 and 8 clients");
    let session = pages::session(bin, dir, &srv.base)?;
    let busy = data.first_arrival + chrono::Days::new(1800);
    let (arriving, in_house) = ops::desk_stays(&client, &data, 20);
    let ids = pages::Ids {
        reservations: &data.sample,
        arriving: &arriving,
        in_house: &in_house,
    };
    let page_times = pages::measure(&srv, &session, secs.min(5.0), &ids, busy);
    progress(args, "the day close of yesterday");
    let (close_ms, close_cpu_ms) = ops::day_close(&srv, &client)?;
    let rss_after = srv.rss_kb();
    let startup_ms = srv.startup.as_secs_f64() * 1000.0;
    srv.stop();

    let (bare_post, bare_arrivals, bare_guests) = (
        "bare POST (the record and its event: two INSERTs, one COMMIT)",
        "bare GET (one indexed SELECT)",
        "bare GET (the store's name search)",
    );
    let rows = [
        row(
            "create reservation",
            create,
            bare_post,
            &bare_create,
            wal_create,
        ),
        row(
            "list arrivals for a date",
            list,
            bare_arrivals,
            &bare_list,
            wal_list,
        ),
        row(
            "guest search by name",
            search,
            bare_guests,
            &bare_search,
            wal_search,
        ),
        row(
            "offers, 14 nights",
            offers,
            bare_arrivals,
            &bare_list,
            wal_offers,
        ),
        row(
            "occupancy report, a month",
            occupancy,
            bare_arrivals,
            &bare_list,
            wal_reports,
        ),
        row(
            "revenue report, a month",
            revenue,
            bare_arrivals,
            &bare_list,
            wal_reports,
        ),
        row(
            "payments report, a month",
            payments,
            bare_arrivals,
            &bare_list,
            wal_reports,
        ),
        row(
            "ISTAT movement, a month",
            istat,
            bare_arrivals,
            &bare_list,
            wal_reports,
        ),
        row(
            "compliance calendar, a month",
            calendar,
            bare_arrivals,
            &bare_list,
            wal_reports,
        ),
        row(
            "check-in",
            check_in,
            "bare check-in (read the stay; write it back and its event)",
            &bare_in,
            wal_stays,
        ),
        row(
            "check-out with invoice",
            check_out,
            "bare check-out (read the stay; write it back, an invoice with a line a night, \
             a payment, an event)",
            &bare_out,
            wal_stays,
        ),
    ];
    let binary_bytes = std::fs::metadata(bin).map(|m| m.len()).unwrap_or(0);
    let report = json!({
        "dataset": {"reservations": args.reservations, "guests": args.guests,
            "rooms": args.rooms, "clients": clients, "seconds": secs,
            "seed_seconds": round(seed_secs), "pinning": pinning},
        "results": rows.iter().map(|r| json!({
            "name": r.name, "rps": round(r.stats.rps), "p50_ms": round(r.stats.p50_ms),
            "p99_ms": round(r.stats.p99_ms), "cpu_us": round(r.stats.cpu_us),
            "requests": r.stats.count, "errors": r.stats.errors,
            "baseline": r.baseline, "baseline_rps": round(r.baseline_stats.rps),
            "baseline_p99_ms": round(r.baseline_stats.p99_ms),
            "baseline_cpu_us": round(r.baseline_stats.cpu_us),
            "cpu_ratio": round(r.stats.cpu_us / r.baseline_stats.cpu_us.max(1e-9)),
            "wal_bytes_after": r.wal_bytes,
        })).collect::<Vec<_>>(),
        "pages": page_times.iter().map(two_loads).collect::<Vec<_>>(),
        "latency": latency.iter().map(two_loads).collect::<Vec<_>>(),
        "day_close": {"ms": round(close_ms), "cpu_ms": round(close_cpu_ms)},
        "webhooks": {"event": "reservation.created", "singles": hooks.latency.count,
            "p50_ms": round(hooks.latency.p50_ms), "p99_ms": round(hooks.latency.p99_ms),
            "burst": hooks.burst, "deliveries_per_second": round(hooks.per_second),
            "missing": hooks.missing},
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
        report::print_table(&report);
    }
    if let Some(file) = &args.markdown {
        std::fs::write(file, report::markdown(&report, &provenance()))
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    let errors: usize = rows.iter().map(|r| r.stats.errors).sum::<usize>()
        + page_times
            .iter()
            .chain(&latency)
            .map(|p| p.one.errors + p.eight.errors)
            .sum::<usize>()
        + hooks.missing;
    if errors > 0 {
        return Err(format!("{errors} requests got an unexpected answer"));
    }
    Ok(())
}

/// Where figures come from: the checkout's commit (marked when it has changes) and the day.
fn provenance() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit =
        git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "an unknown commit".into());
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let day = chrono::Utc::now().format("%Y-%m-%d");
    format!(
        "`{commit}`{} ({day})",
        if dirty {
            " with uncommitted changes"
        } else {
            ""
        }
    )
}

fn row(
    name: &'static str,
    stats: Stats,
    baseline: &'static str,
    base: &Stats,
    wal_bytes: u64,
) -> Row {
    Row {
        name,
        stats,
        baseline,
        baseline_stats: base.clone(),
        wal_bytes,
    }
}

/// A measurement at 1 and 8 clients as JSON.
fn two_loads(p: &pages::PageTimes) -> serde_json::Value {
    let load = |s: &Stats| {
        json!({"p50_ms": round(s.p50_ms), "p99_ms": round(s.p99_ms), "rps": round(s.rps),
            "cpu_us": round(s.cpu_us), "errors": s.errors})
    };
    json!({"name": p.name, "one_client": load(&p.one), "eight_clients": load(&p.eight)})
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
