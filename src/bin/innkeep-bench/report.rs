//! The benchmark's report as a table for people (the same figures as `--json`).

/// Prints the report `r` (see `measure` in main.rs) as tables.
pub fn print_table(r: &serde_json::Value) {
    let d = &r["dataset"];
    println!(
        "innkeep-bench: {} reservations, {} guests, {} rooms; {} clients, {} s per operation \
         (seeded in {} s)\n",
        d["reservations"], d["guests"], d["rooms"], d["clients"], d["seconds"], d["seed_seconds"]
    );
    println!("{}\n", d["pinning"].as_str().unwrap_or(""));
    println!(
        "{:<24} {:>8} {:>7} {:>7} {:>7}  {:<38} {:>8} {:>7} {:>7} {:>6} {:>8}",
        "operation",
        "req/s",
        "p50 ms",
        "p99 ms",
        "CPU µs",
        "baseline (same run)",
        "req/s",
        "p99 ms",
        "CPU µs",
        "ratio",
        "WAL MiB"
    );
    let f = |v: &serde_json::Value| v.as_f64().unwrap_or(0.0);
    for x in r["results"].as_array().into_iter().flatten() {
        println!(
            "{:<24} {:>8.1} {:>7.2} {:>7.2} {:>7.0}  {:<38} {:>8.1} {:>7.2} {:>7.0} {:>6.2} {:>8.1}",
            x["name"].as_str().unwrap_or(""),
            f(&x["rps"]),
            f(&x["p50_ms"]),
            f(&x["p99_ms"]),
            f(&x["cpu_us"]),
            x["baseline"].as_str().unwrap_or(""),
            f(&x["baseline_rps"]),
            f(&x["baseline_p99_ms"]),
            f(&x["baseline_cpu_us"]),
            f(&x["cpu_ratio"]),
            f(&x["wal_bytes_after"]) / 1_048_576.0,
        );
    }
    println!("(ratio: innkeep's CPU per request over the bare server's)");
    println!(
        "\n{:<50} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "desk page", "1: p50 ms", "1: p99 ms", "1: CPU µs", "8: p50 ms", "8: p99 ms"
    );
    for p in r["pages"].as_array().into_iter().flatten() {
        let (one, eight) = (&p["one_client"], &p["eight_clients"]);
        println!(
            "{:<50} {:>10.2} {:>10.2} {:>10.0} {:>10.2} {:>10.2}",
            p["name"].as_str().unwrap_or(""),
            one["p50_ms"].as_f64().unwrap_or(0.0),
            one["p99_ms"].as_f64().unwrap_or(0.0),
            one["cpu_us"].as_f64().unwrap_or(0.0),
            eight["p50_ms"].as_f64().unwrap_or(0.0),
            eight["p99_ms"].as_f64().unwrap_or(0.0),
        );
    }
    let w = &r["webhooks"];
    println!(
        "\nwebhooks ({}): commit to delivery p50 {} ms, p99 {} ms over {} single bookings; \
         a burst of {} delivered at {} per second; {} missing",
        w["event"].as_str().unwrap_or(""),
        w["p50_ms"],
        w["p99_ms"],
        w["singles"],
        w["burst"],
        w["deliveries_per_second"],
        w["missing"]
    );
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
