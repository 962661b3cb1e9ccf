//! `innkeep config check` and `innkeep migrate`: the configuration in force (with the
//! fiscal certificate as the server would load it) and the schema.

use crate::config::{self, Loaded};
use crate::db;

/// The fiscal certificate, loaded as the server would: (subject, expiry, days left).
fn fiscal_certificate(l: &Loaded) -> Result<Option<serde_json::Value>, String> {
    let f = &l.config.compliance.fiscal;
    if f.scheme != config::FiscalSchemeName::HrCis {
        return Ok(None);
    }
    let c = crate::compliance::fiscal_credentials(f)?;
    let days = (c.not_after - chrono::Utc::now()).num_days();
    Ok(Some(serde_json::json!({
        "subject": c.subject,
        "issuer": c.issuer,
        "serial": c.serial,
        "not_after": crate::clock::format_instant(c.not_after),
        "days_left": days,
    })))
}

pub(super) fn config_check(l: &Loaded, json: bool) -> Result<(), String> {
    let file = l.file.as_ref().map(|f| f.display().to_string());
    let certificate = fiscal_certificate(l)?;
    let warnings = l.config.compliance.fiscal.warnings();
    if json {
        let out = serde_json::json!({
            "ok": true,
            "data_dir": l.data_dir,
            "file": file,
            "own_file": l.own_file,
            "environment": l.env_keys,
            "config": l.config,
            "fiscal_certificate": certificate,
            "warnings": warnings,
        });
        println!("{out}");
    } else {
        println!("Configuration is valid.");
        println!("data directory: {}", l.data_dir.display());
        println!("config file:    {}", file.as_deref().unwrap_or("(none)"));
        if let Some(own) = &l.own_file {
            println!("and beneath it: {}", own.display());
        }
        if !l.env_keys.is_empty() {
            println!("environment:    {}", l.env_keys.join(", "));
        }
        println!("listen:         {}", l.config.server.listen);
        println!("log level:      {}", l.config.log.level);
        let r = &l.config.compliance.registration;
        match r.scheme {
            config::RegistrationSchemeName::None => println!("registration:   none"),
            config::RegistrationSchemeName::ItAlloggiati => println!(
                "registration:   it-alloggiati{} as {} at {} (password and ws_key set)",
                if r.dry_run {
                    " (dry run: Test, not Send)"
                } else {
                    ""
                },
                r.username,
                r.endpoint
            ),
            config::RegistrationSchemeName::HrEvisitor => println!(
                "registration:   hr-evisitor for facility {} as {} at {} (password set)",
                r.facility,
                r.username,
                r.endpoint_in_use()
            ),
        }
        match &l.config.hub {
            None => println!("hub:            none"),
            Some(h) => println!(
                "hub:            {} as {}{}",
                h.url,
                h.client_id,
                if h.push {
                    " (this server pushes its events)"
                } else {
                    " (the hub pulls; used by numbering confirm --from-hub)"
                }
            ),
        }
        let f = &l.config.compliance.fiscal;
        match &certificate {
            None => println!("fiscal:         none"),
            Some(c) => {
                println!(
                    "fiscal:         hr-cis at {} (OIB {}, premises {}, device {}, operator {})",
                    f.endpoint, f.oib, f.premises, f.device, f.operator_oib
                );
                println!("certificate:    {}", c["subject"].as_str().unwrap_or(""));
                println!(
                    "expires:        {} ({} days left)",
                    c["not_after"].as_str().unwrap_or(""),
                    c["days_left"]
                );
                if c["days_left"].as_i64().unwrap_or(0) < 30 {
                    eprintln!(
                        "warning: the fiscal certificate expires within 30 days; order a new one from FINA"
                    );
                }
            }
        }
        for w in &warnings {
            eprintln!("warning: {w}");
        }
    }
    Ok(())
}

pub(super) fn migrate(l: &Loaded, json: bool) -> Result<(), String> {
    crate::durable::prepare_data_dir(&l.data_dir).map_err(|e| e.operator_message())?;
    let path = l.data_dir.join(db::DB_FILE);
    let mut conn = db::open_writable(&path).map_err(|e| e.operator_message())?;
    let before = db::migration_status(&conn).map_err(|e| e.operator_message())?;
    let after = db::migrate(&mut conn).map_err(|e| e.operator_message())?;
    if json {
        println!(
            "{}",
            serde_json::json!({"database": path, "from_version": before.applied, "to_version": after.applied})
        );
    } else if before.applied == after.applied {
        println!(
            "{}: already at schema version {}.",
            path.display(),
            after.applied
        );
    } else {
        println!(
            "{}: migrated from schema version {} to {}.",
            path.display(),
            before.applied,
            after.applied
        );
    }
    Ok(())
}
