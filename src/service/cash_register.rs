//! Italy's telematic cash register, on demand: closing its fiscal day (the Z report, after
//! which the register transmits the day's takings to the Agenzia delle Entrate).

use super::Services;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::Principal;
use crate::model::outcome::DayClosed;

/// `POST /v1/compliance/cash-register/close`: the register's daily closure, now.
pub async fn close(svc: &Services, p: &Principal) -> AppResult<DayClosed> {
    p.require(Scope::Compliance)?;
    let fiscal = svc.compliance().fiscal.clone();
    let done = tokio::task::spawn_blocking(move || fiscal.close_day())
        .await
        .map_err(|e| AppError::internal(format!("the daily closure stopped: {e}")))?;
    match done {
        Ok(message) => {
            tracing::info!(%message, "cash register day closed");
            let said = message.clone();
            svc.db()
                .write(move |tx| {
                    let today = crate::service::reservations::today(tx)?;
                    crate::store::calendar::register_closed(tx, &today.to_string(), &said)
                })
                .await?;
            Ok(DayClosed { message })
        }
        Err(why) => Err(AppError::conflict("cash_register_unavailable", why)),
    }
}
