//! `GET /metrics`: Prometheus text for monitoring (needs the `admin` scope).

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use poem::web::Data;
use poem::{Response, handler};

use crate::service::{Services, maintenance};

/// Counters the edge updates on every request.
#[derive(Debug)]
pub struct Metrics {
    started: Instant,
    by_class: [AtomicU64; 5],
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            started: Instant::now(),
            by_class: Default::default(),
        }
    }
}

impl Metrics {
    /// Counts an answered request.
    pub fn record(&self, status: u16) {
        let class = (status / 100).clamp(1, 5) as usize - 1;
        self.by_class[class].fetch_add(1, Ordering::Relaxed);
    }
}

/// Writes one metric family: its help, its type and its samples (`labels`, value).
fn family(out: &mut String, name: &str, kind: &str, help: &str, samples: &[(String, i64)]) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
    for (labels, value) in samples {
        let _ = writeln!(out, "{name}{labels} {value}");
    }
}

/// The Prometheus exposition.
#[handler]
pub async fn metrics(m: Data<&std::sync::Arc<Metrics>>, svc: Data<&Services>) -> Response {
    let mut out = String::new();
    let by_class: Vec<_> = m
        .by_class
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                format!("{{class=\"{}xx\"}}", i + 1),
                c.load(Ordering::Relaxed) as i64,
            )
        })
        .collect();
    family(
        &mut out,
        "innkeep_http_requests_total",
        "counter",
        "HTTP requests answered, by status class.",
        &by_class,
    );
    let uptime = m.started.elapsed().as_secs() as i64;
    family(
        &mut out,
        "innkeep_uptime_seconds",
        "gauge",
        "Seconds since the server started.",
        &[(String::new(), uptime)],
    );
    if let Ok((s, now)) = maintenance::figures(svc.0).await {
        let one = |v: i64| [(String::new(), v)];
        let labelled = |label: &str, rows: Vec<(String, i64)>| -> Vec<(String, i64)> {
            rows.into_iter()
                .map(|(k, v)| (format!("{{{label}=\"{k}\"}}"), v))
                .collect()
        };
        family(
            &mut out,
            "innkeep_events_last_sequence",
            "counter",
            "Sequence of the newest event.",
            &one(s.last_sequence),
        );
        family(
            &mut out,
            "innkeep_reservations",
            "gauge",
            "Reservations by status.",
            &labelled("status", s.reservations),
        );
        let (depth, oldest) = s.jobs;
        family(
            &mut out,
            "innkeep_queue_depth",
            "gauge",
            "Jobs waiting or running (webhook deliveries, submissions).",
            &one(depth),
        );
        let age = oldest
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok())
            .map_or(0, |t| {
                (now - t.with_timezone(&chrono::Utc)).num_seconds().max(0)
            });
        family(
            &mut out,
            "innkeep_queue_oldest_pending_seconds",
            "gauge",
            "Age of the oldest job not yet done (0 when the queue is empty).",
            &one(age),
        );
        let mut outcomes = labelled("outcome", s.deliveries);
        for o in crate::domain::webhooks::DELIVERY_OUTCOMES {
            let label = format!("{{outcome=\"{o}\"}}");
            if !outcomes.iter().any(|(l, _)| *l == label) {
                outcomes.push((label, 0));
            }
        }
        outcomes.sort();
        family(
            &mut out,
            "innkeep_webhook_deliveries",
            "gauge",
            "Webhook delivery attempts in the kept log (pruned with the events), by outcome.",
            &outcomes,
        );
        let mut overdue: Vec<(String, i64)> = Vec::new();
        let mut due_soon: Vec<(String, i64)> = Vec::new();
        for c in &s.submissions {
            let label = format!("{{kind=\"{}\"}}", c.kind);
            for (list, n) in [(&mut overdue, c.overdue), (&mut due_soon, c.due_soon)] {
                match list.iter_mut().find(|(l, _)| *l == label) {
                    Some((_, total)) => *total += n,
                    None => list.push((label.clone(), n)),
                }
            }
        }
        let by_status = s
            .submissions
            .into_iter()
            .map(|c| {
                (
                    format!("{{kind=\"{}\",status=\"{}\"}}", c.kind, c.status),
                    c.count,
                )
            })
            .collect::<Vec<_>>();
        family(
            &mut out,
            "innkeep_compliance_submissions",
            "gauge",
            "Submissions to national authorities, by kind and status.",
            &by_status,
        );
        family(
            &mut out,
            "innkeep_compliance_overdue",
            "gauge",
            "Submissions past their legal deadline and not accepted, by kind.",
            &overdue,
        );
        family(
            &mut out,
            "innkeep_compliance_due_soon",
            "gauge",
            "Submissions not accepted whose legal deadline is less than a day away, by kind.",
            &due_soon,
        );
    }
    if let Ok(Some(age)) = crate::service::backups::last_good_age(svc.0).await {
        family(
            &mut out,
            "innkeep_backup_last_good_age_seconds",
            "gauge",
            "Seconds since the last scheduled backup was written and verified (absent: none yet).",
            &[(String::new(), age)],
        );
    }
    Response::builder()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(out)
}
