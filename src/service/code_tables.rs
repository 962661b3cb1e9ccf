//! The registration authority's code tables as the services use them: fetched from the
//! authority and refreshed (eVisitor's look-ups), and offered to the desk as the lists a
//! receptionist picks from.

use chrono::Utc;

use crate::compliance::RegistrationScheme;
use crate::db::Db;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, Kind};
use crate::model::Principal;
use crate::service::Services;
use crate::store;

/// How old fetched code tables may grow before they are fetched again.
pub const TABLES_MAX_AGE: chrono::Duration = chrono::Duration::hours(24);

/// Fetches the scheme's code tables from the authority when it has them fetched and they
/// are missing or older than [`TABLES_MAX_AGE`] (or always, with `force`), replacing each in
/// one transaction: the tables loaded, or none when nothing was due.
pub async fn refresh_tables(
    db: &Db,
    scheme: std::sync::Arc<dyn RegistrationScheme>,
    force: bool,
) -> AppResult<Option<usize>> {
    if !scheme.enabled() || !scheme.fetches_tables() {
        return Ok(None);
    }
    let name = scheme.name();
    let now = db.clock().now();
    let versions = db.read(store::codes::versions).await?;
    let fresh = |t: &store::codes::TableVersion| {
        chrono::DateTime::parse_from_rfc3339(&t.imported_at)
            .is_ok_and(|at| now - at.with_timezone(&Utc) < TABLES_MAX_AGE)
    };
    let mine: Vec<_> = versions.iter().filter(|t| t.scheme == name).collect();
    if !force && !mine.is_empty() && mine.iter().all(|t| fresh(t)) {
        return Ok(None);
    }
    let (log, fetched) = tokio::task::spawn_blocking(move || scheme.fetch_tables())
        .await
        .map_err(AppError::internal)?;
    let calls = log.len();
    let tables = fetched.map_err(|why| {
        AppError::new(
            Kind::Conflict,
            "code_tables_unavailable",
            format!("the code tables could not be fetched from {name} ({calls} calls): {why}"),
        )
    })?;
    let n = tables.len();
    let source = format!("fetched from {name}");
    db.write(move |tx| {
        for (table, rows) in &tables {
            let text: String = rows
                .iter()
                .map(|r| format!("{}\t{}\t{}\n", r.code, r.description, r.province))
                .collect();
            let sha = crate::domain::digest::sha256_hex(text.as_bytes());
            store::codes::replace(tx, name, table, rows, &sha, &source)?;
        }
        Ok(())
    })
    .await?;
    Ok(Some(n))
}

/// Fetches the registration scheme's code tables now, for an administrator, and any
/// receipt of the authority's still due: how many tables were loaded (none when the scheme
/// keeps no fetched tables).
pub async fn fetch_now(svc: &Services, p: &Principal) -> AppResult<usize> {
    p.require(Scope::Compliance)?;
    let scheme = svc.compliance().registration.clone();
    let tables = refresh_tables(svc.db(), scheme.clone(), true)
        .await?
        .unwrap_or(0);
    crate::service::registration_receipts::fetch_due(svc.db(), scheme).await?;
    Ok(tables)
}

/// The lists a receptionist picks the tourist board's values from, by the desk's field name
/// ((code, label) each), when the scheme asks them; `None` when it does not.
pub async fn tourist_lists(
    svc: &Services,
    p: &Principal,
) -> AppResult<Option<Vec<(&'static str, Vec<(String, String)>)>>> {
    use crate::compliance::evisitor::tables as t;
    p.require(Scope::GuestsRead)?;
    let scheme = svc.compliance().registration.clone();
    if !scheme.enabled() || scheme.name() != t::SCHEME {
        return Ok(None);
    }
    let wanted = [
        ("tax_category", t::TAX_CATEGORIES, true),
        ("arrival_organisation", t::ARRIVALS, true),
        ("service_type", t::SERVICES, false),
        ("border_crossing", t::BORDER_CROSSINGS, true),
    ];
    let lists = svc
        .db()
        .read(move |c| {
            let mut out = Vec::new();
            for (field, table, coded) in wanted {
                let rows = store::codes::rows(c, t::SCHEME, table)?;
                let list = rows
                    .into_iter()
                    .map(|(code, name)| {
                        let label = if coded {
                            format!("{code} · {name}")
                        } else {
                            name
                        };
                        (code, label)
                    })
                    .collect();
                out.push((field, list));
            }
            Ok(out)
        })
        .await?;
    Ok(Some(lists))
}
