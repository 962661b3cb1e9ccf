//! The running server: `App::build` prepares the data directory, the database and the
//! listener; `App::run` serves until the shutdown future resolves, then lets in-flight
//! requests finish.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use poem::Server;
use poem::listener::TcpAcceptor;

use crate::api::pagination::CursorKey;
use crate::auth::AuthServer;
use crate::compliance::Compliance;
use crate::config::Loaded;
use crate::db::{DB_FILE, Db};
use crate::domain::webhooks::Destinations;
use crate::error::{AppError, AppResult};
use crate::jobs::registration::RegistrationHandler;
use crate::jobs::webhook::WebhookHandler;
use crate::jobs::{Handler, Queue};
use crate::service::feed::Marker;

/// How often the event feed's mark file is refreshed.
const FEED_MARK_EVERY: Duration = Duration::from_secs(1);

/// How often old events, idempotency keys and sort-key log entries are pruned.
const MAINTENANCE_EVERY: Duration = Duration::from_secs(3600);
/// How often the server looks whether the day's backup is due.
const BACKUP_CHECK_EVERY: Duration = Duration::from_secs(60);
/// How often innkeep checks whether the registration code tables are due to be fetched.
const TABLES_CHECK_EVERY: Duration = Duration::from_secs(600);

/// The daily backup's plan from `[backup]`, when a directory is set.
fn backup_plan(
    loaded: &Loaded,
) -> Result<Option<(chrono::NaiveTime, crate::jobs::backup::Plan)>, String> {
    let b = &loaded.config.backup;
    let Some(dir) = &b.dir else {
        return Ok(None);
    };
    let seal = match &b.passphrase_file {
        None => None,
        Some(f) => Some(crate::backup::crypt::Seal::Passphrase(
            crate::backup::crypt::passphrase_from(f).map_err(|e| format!("[backup] {e}"))?,
        )),
    };
    let plan = crate::jobs::backup::Plan {
        data_dir: loaded.data_dir.clone(),
        config: loaded.file.clone(),
        certificates: loaded.config.compliance.fiscal.files(),
        dir: dir.clone(),
        keep: b.keep as usize,
        seal,
    };
    Ok(Some((b.at()?, plan)))
}

/// A bound, ready-to-serve innkeep.
pub struct App {
    listener: tokio::net::TcpListener,
    tls: Option<std::sync::Arc<rustls::ServerConfig>>,
    addr: SocketAddr,
    db: Db,
    grace: Duration,
    event_retention: Duration,
    instance: Arc<str>,
    auth: Arc<AuthServer>,
    /// The compliance schemes in force (the first-run page may change them).
    compliance: Arc<crate::compliance::live::Switch>,
    destinations: Destinations,
    workers: usize,
    webhook_proxy: Option<ureq::Proxy>,
    cursor_key: CursorKey,
    feed: Marker,
    rate: crate::domain::limits::Rate,
    desk: crate::config::desk::Timeouts,
    /// The daily backup: when, and what it copies where (when `[backup] dir` is set).
    backup: Option<(chrono::NaiveTime, crate::jobs::backup::Plan)>,
    /// The group's hub this server pushes its events to (`[hub]` with `push = true`).
    hub: Option<crate::config::hub::HubConfig>,
    /// The channel manager this server keeps in step (`[channel]`).
    channel: Option<crate::config::channel::ChannelConfig>,
    /// The relay guests' messages go through (`[mail]`).
    mail: Option<crate::config::mail::MailConfig>,
    /// `[compliance.istat]`.
    istat: crate::config::compliance::IstatConfig,
    /// The first-run page's gate (open with a code while the installation is new).
    welcome: Arc<crate::service::welcome::Welcome>,
}

/// Opens (creating and migrating) the database in `dir`.
pub fn open_db(dir: &Path) -> AppResult<Db> {
    crate::durable::prepare_data_dir(dir)?;
    Db::open(&dir.join(DB_FILE))
}

impl App {
    /// Opens the database and binds the listener (port 0 picks a free port).
    pub async fn build(loaded: &Loaded) -> AppResult<App> {
        let compliance =
            Compliance::configured(&loaded.config.compliance).map_err(AppError::internal)?;
        for warning in loaded.config.compliance.fiscal.warnings() {
            tracing::warn!("{warning}");
        }
        App::build_with(loaded, compliance).await
    }

    /// Like [`App::build`], with the national compliance schemes to use.
    pub async fn build_with(loaded: &Loaded, compliance: Compliance) -> AppResult<App> {
        let dir = loaded.data_dir.clone();
        let db = tokio::task::spawn_blocking(move || open_db(&dir))
            .await
            .map_err(AppError::internal)??;
        let listen = loaded.config.server.listen;
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| AppError::internal(format!("cannot listen on {listen}: {e}")))?;
        let addr = listener.local_addr().map_err(AppError::internal)?;
        let oauth = &loaded.config.oauth;
        let keys = crate::service::oauth::keys::open(
            &db,
            &loaded.data_dir,
            Duration::from_secs(oauth.access_token_minutes * 60),
        )
        .await?;
        let server = &loaded.config.server;
        let tls = match (&server.tls_cert, &server.tls_key) {
            (Some(cert), Some(key)) => {
                Some(crate::tls::load(cert, key).map_err(AppError::internal)?)
            }
            _ => None,
        };
        let auth = Arc::new(AuthServer::new(keys, oauth, addr, tls.is_some()));
        let cursor_key = CursorKey::open(&loaded.data_dir).map_err(AppError::internal)?;
        let (feed, feed_id) = Marker::open(&db, &loaded.data_dir).await?;
        // The front desk signs in as its own first-party client; a new or upgraded
        // installation gets it without a CLI step.
        let first_party = crate::service::Services::new(db.clone(), Compliance::default());
        crate::service::desk::ensure_client(&first_party).await?;
        crate::service::kiosk::ensure_client(&first_party).await?;
        let switch = crate::compliance::live::Switch::new(compliance);
        let reconfigure = crate::service::setup_compliance::Reconfigure {
            flags: crate::config::Flags {
                data_dir: Some(loaded.data_dir.clone()),
                config_file: loaded.file.clone(),
                ..Default::default()
            },
            switch: switch.clone(),
        };
        let welcome = Arc::new(
            crate::service::welcome::Welcome::start(&first_party, Some(reconfigure)).await?,
        );
        tracing::debug!(%feed_id, "event feed");
        Ok(App {
            listener,
            tls,
            addr,
            db,
            grace: Duration::from_secs(loaded.config.server.shutdown_grace_seconds),
            event_retention: Duration::from_secs(
                u64::from(loaded.config.events.retention_days) * 24 * 3600,
            ),
            instance: Arc::from(crate::ids::new("srv")),
            auth,
            compliance: switch,
            destinations: Destinations {
                private: loaded.config.webhooks.allow_private,
                loopback: loaded.config.webhooks.allow_loopback,
            },
            workers: loaded.config.webhooks.workers,
            webhook_proxy: match &loaded.config.webhooks.proxy {
                Some(url) => Some(crate::jobs::webhook::proxy(url).map_err(AppError::internal)?),
                None => None,
            },
            cursor_key,
            feed,
            rate: loaded.config.limits.rate().map_err(AppError::internal)?,
            desk: loaded.config.desk.timeouts(),
            backup: backup_plan(loaded).map_err(AppError::internal)?,
            hub: loaded.config.hub.clone().filter(|h| h.push),
            channel: loaded.config.channel.clone(),
            mail: loaded.config.mail.clone(),
            istat: loaded.config.compliance.istat.clone(),
            welcome,
        })
    }

    /// The address actually listened on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The one-time code of the first-run page, while the installation is new (printed on
    /// the console when innkeep starts).
    pub fn first_run_code(&self) -> Option<String> {
        self.welcome.code()
    }

    /// The database (for start-up checks and tests).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The authorization server (for tests that mint tokens).
    pub fn auth(&self) -> Arc<AuthServer> {
        self.auth.clone()
    }

    /// Serves until `shutdown` resolves, then waits for in-flight requests (up to the
    /// configured grace period) and closes the database.
    pub async fn run(mut self, shutdown: impl Future<Output = ()> + Send) -> AppResult<()> {
        let backup = self.backup.take();
        let at = backup.as_ref().map(|(at, _)| *at);
        let db = self.db.clone();
        let scheduler = tokio::spawn(async move {
            let Some(at) = at else { return };
            let mut tick = tokio::time::interval(BACKUP_CHECK_EVERY);
            loop {
                tick.tick().await;
                if let Err(e) = crate::service::backups::schedule(&db, at).await {
                    tracing::warn!(error = %e, "queueing the daily backup failed");
                }
            }
        });
        let (db, retention) = (self.db.clone(), self.event_retention);
        let kiosk_lifetime = self.desk.kiosk;
        let maintenance = tokio::spawn(async move {
            let mut tick = tokio::time::interval(MAINTENANCE_EVERY);
            loop {
                tick.tick().await;
                match crate::service::maintenance::prune(&db, retention).await {
                    Ok(p) => tracing::debug!(?p, "maintenance pass"),
                    Err(e) => tracing::warn!(error = %e, "maintenance pass failed"),
                }
                if let Err(e) = crate::service::maintenance::prune_kiosks(&db, kiosk_lifetime).await
                {
                    tracing::warn!(error = %e, "forgetting expired kiosk pairings failed");
                }
            }
        });
        let (db, mut feed) = (self.db.clone(), self.feed);
        let (feed_stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let feed_marker = tokio::spawn(async move {
            let mut tick = tokio::time::interval(FEED_MARK_EVERY);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = &mut stopped => break,
                }
                if let Err(e) = feed.refresh(&db).await {
                    tracing::warn!(error = %e, "refreshing the event feed mark failed");
                }
            }
            feed
        });
        let compliance = self.compliance.compliance();
        let (db, scheme) = (self.db.clone(), compliance.registration.clone());
        let tables = tokio::spawn(async move {
            let mut tick = tokio::time::interval(TABLES_CHECK_EVERY);
            loop {
                tick.tick().await;
                match crate::service::code_tables::refresh_tables(&db, scheme.clone(), false).await
                {
                    Ok(Some(n)) => tracing::info!(tables = n, "registration code tables fetched"),
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, "fetching the registration code tables failed; the loaded ones stay in use")
                    }
                }
                match crate::service::registration_receipts::fetch_due(&db, scheme.clone()).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(receipts = n, "the authority's receipts fetched"),
                    Err(e) => {
                        tracing::warn!(error = %e, "fetching the authority's receipts failed; tried again later")
                    }
                }
            }
        });
        let mut handlers: Vec<Arc<dyn Handler>> = vec![
            Arc::new(WebhookHandler::new(
                self.destinations,
                self.workers,
                self.webhook_proxy.as_ref(),
            )),
            Arc::new(RegistrationHandler::new(compliance.registration.clone())),
            Arc::new(crate::jobs::fiscal::FiscalHandler::new(
                compliance.fiscal.clone(),
            )),
            Arc::new(crate::jobs::einvoice::EInvoiceHandler::new(
                compliance.einvoice.clone(),
            )),
        ];
        if let Some((_, plan)) = backup {
            handlers.push(Arc::new(crate::jobs::backup::BackupHandler::new(plan)));
        }
        if let Some(mail) = self.mail.clone() {
            handlers.push(Arc::new(crate::jobs::mail::MailHandler::new(mail)));
        }
        let queue = Queue::start(self.db.clone(), handlers, self.workers).await?;
        let acceptor = TcpAcceptor::from_tokio(self.listener).map_err(AppError::internal)?;
        tracing::info!(addr = %self.addr, "innkeep is listening");
        let app = crate::api::app(crate::api::AppParts {
            services: crate::service::Services::new(self.db.clone(), compliance.clone())
                .with_channel(self.channel.clone())
                .with_mail(self.mail.as_ref())
                .with_istat(&self.istat),
            instance: self.instance,
            auth: self.auth.clone(),
            destinations: self.destinations,
            cursor_key: self.cursor_key,
            rate: self.rate,
            desk: self.desk,
            welcome: self.welcome.clone(),
        });
        let pusher = self.hub.take().map(|cfg| {
            let svc = crate::service::Services::new(self.db.clone(), compliance.clone());
            tokio::spawn(crate::jobs::hub::Pusher::new(svc, cfg).run())
        });
        // Pre-arrival messages: looked for at start and every ten minutes (the day turns).
        let pre_arrival = self.mail.clone().filter(|m| m.pre_arrival_days > 0).map(|m| {
            let svc = crate::service::Services::new(self.db.clone(), compliance.clone())
                .with_mail(Some(&m));
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(std::time::Duration::from_secs(600));
                loop {
                    tick.tick().await;
                    match crate::service::messages::pre_arrivals(&svc, m.pre_arrival_days, m.public_url.clone()).await {
                        Ok(0) => {}
                        Ok(n) => tracing::info!(messages = n, "pre-arrival messages made"),
                        Err(e) => tracing::warn!(error = %e, "making the pre-arrival messages failed; tried again in ten minutes"),
                    }
                }
            })
        });
        let channel = self.channel.take().map(|cfg| {
            let svc = crate::service::Services::new(self.db.clone(), compliance.clone());
            tokio::spawn(crate::jobs::channel::Pusher::new(svc, cfg).run())
        });
        // The routes and the spec are built: what start-up freed goes back to the system.
        let trimmer = crate::memory::trimmer();
        let served = match self.tls.take() {
            None => {
                Server::new_with_acceptor(acceptor)
                    .run_with_graceful_shutdown(app, shutdown, Some(self.grace))
                    .await
            }
            Some(tls) => {
                use poem::EndpointExt;
                let acceptor = crate::tls::TlsAcceptor::new(acceptor, tls);
                let app = app.around(crate::tls::secure_cookies);
                Server::new_with_acceptor(acceptor)
                    .run_with_graceful_shutdown(app, shutdown, Some(self.grace))
                    .await
            }
        };
        maintenance.abort();
        scheduler.abort();
        tables.abort();
        for p in [pusher, channel, pre_arrival].into_iter().flatten() {
            p.abort();
        }
        trimmer.abort();
        let _ = maintenance.await;
        queue.stop(self.grace).await;
        let _ = feed_stop.send(());
        if let Ok(mut feed) = feed_marker.await
            && let Err(e) = feed.refresh(&self.db).await
        {
            tracing::warn!(error = %e, "writing the event feed mark failed");
        }
        let db = self.db;
        // Dropping the last handle joins the writer after its queued jobs.
        tokio::task::spawn_blocking(move || drop(db))
            .await
            .map_err(AppError::internal)?;
        served.map_err(AppError::internal)
    }
}
