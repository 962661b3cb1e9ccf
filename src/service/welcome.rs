//! The first run in the browser: while an installation is new (no staff, no room types),
//! `/` leads to a page that asks what `innkeep setup` asks. A one-time code, printed on the
//! server's console when it starts (as Jupyter and Home Assistant do), guards it: only
//! someone at the front-desk PC (or with its service log) can make the first admin. Ten
//! wrong codes close the page until innkeep restarts with a new code.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::auth::secrets;
use crate::error::{AppError, AppResult};
use crate::model::{Actor, Principal};
use crate::service::Services;
use crate::service::oauth::device::{normalize_user_code, user_code};
use crate::service::setup::{self, Done};
use crate::service::setup_compliance::{ComplianceAnswers, Reconfigure, sets_of, stage};
use crate::service::setup_plan::{Answers, plan_of};

/// Wrong codes allowed before the page closes.
const MISSES: u32 = 10;

/// The first-run gate of one server process.
#[derive(Debug, Default)]
pub struct Welcome {
    code: Mutex<Option<String>>,
    misses: AtomicU32,
    /// One setup at a time (two browsers with the code cannot both make an admin).
    gate: tokio::sync::Mutex<()>,
    /// How to change the compliance schemes of the running server (`None`: the page does
    /// not offer them).
    reconfigure: Option<Reconfigure>,
}

impl std::fmt::Debug for Reconfigure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reconfigure")
            .field("flags", &self.flags)
            .finish_non_exhaustive()
    }
}

impl Welcome {
    /// The gate of a server starting on `svc`'s database: open with a new code while the
    /// installation is new, closed otherwise.
    /// `reconfigure` lets the page set the compliance schemes up as well.
    pub async fn start(svc: &Services, reconfigure: Option<Reconfigure>) -> AppResult<Welcome> {
        let code = setup::is_new(svc).await?.then(user_code);
        Ok(Welcome {
            code: Mutex::new(code),
            reconfigure,
            ..Welcome::default()
        })
    }

    /// The compliance schemes in force (`registration`, `fiscal`), when the page may set
    /// them up: a scheme already configured (in a config file) is not asked again.
    pub fn schemes(&self) -> Option<crate::model::ComplianceSchemes> {
        self.reconfigure.as_ref().map(|r| r.switch.now().schemes())
    }

    /// The code to print on the console, while the page is open.
    pub fn code(&self) -> Option<String> {
        self.code.lock().map(|c| c.clone()).unwrap_or_default()
    }

    fn close(&self) {
        if let Ok(mut c) = self.code.lock() {
            *c = None;
        }
    }

    /// Whether the first-run page is open: a code is waiting and the installation is still
    /// new (set up meanwhile by `innkeep setup` or the API, the page closes for good).
    pub async fn is_open(&self, svc: &Services) -> bool {
        if self.code().is_none() {
            return false;
        }
        let new = setup::is_new(svc).await.unwrap_or(false);
        if !new {
            self.close();
        }
        new
    }

    /// Sets the installation up from `answers` when `typed` is the code: the same plan and
    /// the same use cases as `innkeep setup`. A wrong code is a 422 at `code`; so is every
    /// broken rule at its field, and nothing is written.
    /// The compliance answers are written to the data directory's own config file and put
    /// in force once the rest is set up; on any failure the file is put back.
    pub async fn set_up(
        &self,
        svc: &Services,
        typed: &str,
        answers: &Answers,
        compliance: ComplianceAnswers,
    ) -> AppResult<Done> {
        let _one = self.gate.lock().await;
        if !self.is_open(svc).await {
            return Err(AppError::conflict(
                "already_set_up",
                "This innkeep is already set up; sign in instead.",
            ));
        }
        let good = self
            .code()
            .is_some_and(|c| secrets::constant_time_eq(&c, &normalize_user_code(typed)));
        if !good {
            if self.misses.fetch_add(1, Ordering::SeqCst) + 1 >= MISSES {
                self.close();
                tracing::warn!("too many wrong first-run codes; restart innkeep for a new one");
            }
            return Err(AppError::invalid_field(
                "code",
                "wrong_code",
                "is not the code innkeep printed when it started",
            )
            .field_said("problem-wrong-first-run-code", vec![]));
        }
        let plan = plan_of(answers);
        let sets = match &self.reconfigure {
            Some(_) => sets_of(&compliance),
            None => Ok(Vec::new()),
        };
        let (plan, sets) = match (plan, sets) {
            (Ok(plan), Ok(sets)) => (plan, sets),
            (plan, sets) => {
                let mut errs = plan.err().unwrap_or_default();
                errs.extend(sets.err().unwrap_or_default());
                return Err(AppError::validation(errs));
            }
        };
        let staged = match &self.reconfigure {
            Some(r) => stage(r, sets, compliance.certificate)?,
            None => None,
        };
        let p = Principal::system(Actor::first_run());
        let done = setup::apply(svc, &p, plan).await?;
        if let Some(staged) = staged {
            staged.commit();
            tracing::info!(schemes = ?svc.compliance().schemes(), "compliance set up from the first-run page");
            // A scheme that fetches its code tables gets them now, not at the next daily
            // check: the first check-in needs them.
            let (db, scheme) = (svc.db().clone(), svc.compliance().registration.clone());
            tokio::spawn(async move {
                if let Err(e) = crate::service::code_tables::refresh_tables(&db, scheme, true).await
                {
                    tracing::warn!(error = %e, "fetching the registration code tables failed; innkeep tries again every 10 minutes");
                }
            });
        }
        self.close();
        tracing::info!(admin = %done.admin, "set up from the first-run page");
        Ok(done)
    }
}

/// Signs the admin a first run made in, as the desk's sign-in would: a sign-in begun for
/// the desk, its code issued by the authorization server for them. Returns where to send
/// the browser (the desk's callback with the code) and the sign-in's state for its cookie.
pub async fn first_sign_in(svc: &Services, admin: &str) -> AppResult<(String, String)> {
    use crate::service::oauth::{AuthorizeParams, check_authorize, issue_code};
    let (query, login_state) = crate::service::desk::begin_login(svc)?;
    let name = admin.to_string();
    let user = svc
        .db()
        .read(move |c| crate::store::clients::user_by_name(c, &name))
        .await?
        .ok_or_else(|| AppError::internal("the new admin is missing"))?;
    let params: AuthorizeParams = serde_urlencoded::from_str(&query).map_err(AppError::internal)?;
    let failed = |_| AppError::internal("the desk's own sign-in was refused");
    let request = check_authorize(svc, &params).await.map_err(failed)?;
    let to = issue_code(svc, &request, &user).await.map_err(failed)?;
    Ok((to, login_state))
}
