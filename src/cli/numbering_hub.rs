//! `innkeep numbering confirm --from-hub`: after a restore, the next invoice numbers from
//! the group's hub (`[hub]`), which keeps the highest number it has seen per series through
//! every re-synchronisation. The hub knows what reached it: invoices issued while it could
//! not be reached are only on paper, so the answer names when it last heard from here.

use std::time::Duration;

use serde_json::Value;

use crate::config::Loaded;

/// The hub's highest number per series: (series, last sequence, last number as printed).
pub struct HubNumbers {
    /// Each series the hub knows.
    pub series: Vec<(String, i64, String)>,
    /// When the hub last heard from this property.
    pub last_contact: Option<String>,
}

/// Asks the hub in `[hub]` for this property's highest invoice numbers.
pub fn fetch(l: &Loaded) -> Result<HubNumbers, String> {
    let hub = l.config.hub.as_ref().ok_or(
        "--from-hub needs a [hub] section in the configuration (url, client_id, secret: this property's entry at the hub)",
    )?;
    let agent = crate::outbound::agent(Duration::from_secs(30), "numbering")
        .build()
        .new_agent();
    let basic = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        format!("{}:{}", hub.client_id, hub.secret.expose()),
    );
    let url = format!("{}/v1/numbering", hub.url.trim_end_matches('/'));
    let mut resp = agent
        .get(&url)
        .header("authorization", format!("Basic {basic}"))
        .call()
        .map_err(|e| format!("the hub at {} cannot be reached: {e}", hub.url))?;
    let status = resp.status().as_u16();
    let body: Value = resp.body_mut().read_json().unwrap_or(Value::Null);
    if status != 200 {
        return Err(format!(
            "the hub answered {status}: {}",
            body["detail"].as_str().unwrap_or("no reason given")
        ));
    }
    let series = body["series"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| {
            Some((
                s["series"].as_str()?.to_string(),
                s["last_seq"].as_i64()?,
                s["last_number"].as_str()?.to_string(),
            ))
        })
        .collect();
    Ok(HubNumbers {
        series,
        last_contact: body["last_contact_at"].as_str().map(str::to_string),
    })
}

/// The next number of every series: past both what this database and the hub have seen.
pub fn next_numbers(local: &[(String, i64)], hub: &HubNumbers) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = local
        .iter()
        .map(|(s, last)| (s.clone(), last + 1))
        .collect();
    for (series, last, _) in &hub.series {
        match out.iter_mut().find(|(s, _)| s == series) {
            Some((_, next)) => *next = (*next).max(last + 1),
            None => out.push((series.clone(), last + 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_number_passes_both_the_database_and_the_hub() {
        let hub = HubNumbers {
            series: vec![
                ("2026".into(), 150, "2026-000150".into()),
                ("2027".into(), 3, "2027-000003".into()),
                ("old".into(), 2, "old-2".into()),
            ],
            last_contact: None,
        };
        let local = [("2026".to_string(), 142), ("old".to_string(), 9)];
        assert_eq!(
            next_numbers(&local, &hub),
            [
                ("2026".to_string(), 151),
                ("old".to_string(), 10),
                ("2027".to_string(), 4)
            ]
        );
    }
}
