//! `innkeep serve`: start the server and stop gracefully on SIGINT or SIGTERM.

use crate::app::App;
use crate::config::{Loaded, LogFormat};

fn init_logging(l: &Loaded) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = tracing_subscriber::EnvFilter::try_new(&l.config.log.level)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        // Colours only on a terminal: not in the journal or a log file.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    // Whatever `[log] level` says, the HTTP client never dumps what it sends (credentials).
    let _ = match l.config.log.format {
        LogFormat::Json => builder
            .json()
            .finish()
            .with(crate::outbound::never_secrets())
            .try_init(),
        LogFormat::Text => builder
            .finish()
            .with(crate::outbound::never_secrets())
            .try_init(),
    };
}

/// Installs the SIGINT (Ctrl-C) and SIGTERM handlers now, so that a signal arriving while
/// the server starts is not lost, and returns a future that resolves on either.
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    let (mut int, mut term) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
        )
    };
    Ok(async move {
        #[cfg(unix)]
        tokio::select! {
            _ = int.recv() => {},
            _ = term.recv() => {},
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("stop signal received; finishing in-flight requests");
    })
}

/// On a new installation, where to open the first-run page and its one-time code; later,
/// while there is no staff member or API client, how to make the first one.
async fn first_run_hint(app: &App, scheme: &str) {
    let db = app.db();
    if let Some(code) = app.first_run_code() {
        let https = scheme == "https";
        println!(
            "\nThis innkeep is new: no rooms and no staff yet. Open\n\n  {}/\n\nin the browser \
             and type this one-time code when it asks:\n\n  {code}\n\n(Scripts and the Debian \
             package can run `innkeep setup` instead.)\n",
            crate::auth::lan_address(app.local_addr(), https)
        );
        tracing::info!("first run: open the front desk and type the code printed on the console");
        return;
    }
    let no_users = crate::service::oauth::list_users(db)
        .await
        .is_ok_and(|u| u.is_empty());
    let no_clients = crate::service::oauth::list_clients(db)
        .await
        .is_ok_and(|c| c.iter().all(|c| c.id == crate::service::desk::CLIENT_ID));
    if no_users {
        println!(
            "\nNo staff yet. Create the first one (the password is printed once), then open the \
             front desk at {scheme}://{}/ and sign in:\n\n  \
             innkeep users create --username admin --role admin\n",
            app.local_addr()
        );
    }
    if no_clients {
        println!(
            "\nNo OAuth clients yet. Create the first admin client, then get a token:\n\n  \
             innkeep clients create --name admin --scopes \"{}\"\n  \
             curl -s -u CLIENT_ID:CLIENT_SECRET -d grant_type=client_credentials {scheme}://{}/oauth/token\n",
            crate::domain::scopes::Scope::NAMES.join(" "),
            app.local_addr()
        );
    }
}

/// The lock a serving innkeep holds on its data directory, so that a second server or a
/// restore refuses instead of sharing it.
pub const LOCK_FILE: &str = "innkeep.lock";

/// Takes the data directory's lock, or says who holds it. Released when the file closes
/// (also when the process dies).
pub fn lock(data_dir: &std::path::Path) -> Result<std::fs::File, String> {
    crate::durable::prepare_data_dir(data_dir).map_err(|e| e.operator_message())?;
    let path = data_dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "an innkeep server is using {} (it holds {}); stop it first (for example \
             `systemctl stop innkeep`)",
            data_dir.display(),
            path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", path.display())),
    }
}

/// Tells systemd (`Type=notify`) that innkeep is ready, and, when the unit asks for a
/// watchdog, pings it at half its interval for as long as the database still answers a read
/// and the writer still takes a (empty) transaction: a hung server is restarted. Without
/// systemd (no `NOTIFY_SOCKET`) this does nothing.
fn systemd_ready(status: &str, db: crate::db::Db) {
    use sd_notify::NotifyState;
    let _ = sd_notify::notify(&[NotifyState::Ready, NotifyState::Status(status)]);
    let Some(interval) = sd_notify::watchdog_enabled() else {
        return;
    };
    let every = interval / 2;
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            let alive = tokio::time::timeout(every, async {
                db.ready().await?;
                db.write(|_| Ok(())).await
            })
            .await;
            match alive {
                Ok(Ok(())) => {
                    let _ = sd_notify::notify(&[NotifyState::Watchdog]);
                }
                Ok(Err(e)) => tracing::error!(error = %e, "watchdog: the database does not answer"),
                Err(_) => tracing::error!("watchdog: the database did not answer in time"),
            }
        }
    });
}

/// Runs the server until a stop signal.
pub fn run(l: &Loaded) -> Result<(), String> {
    init_logging(l);
    let _lock = lock(&l.data_dir)?;
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async {
        let stop = stop_signal().map_err(|e| format!("cannot install signal handlers: {e}"))?;
        let app = App::build(l).await.map_err(|e| e.operator_message())?;
        let scheme = if l.config.server.tls_cert.is_some() {
            "https"
        } else {
            "http"
        };
        let status = format!("serving {scheme}://{}", app.local_addr());
        systemd_ready(&status, app.db().clone());
        let stop = async move {
            stop.await;
            let _ = sd_notify::notify(&[sd_notify::NotifyState::Stopping]);
        };
        println!(
            "innkeep {} {status} (data in {})",
            env!("CARGO_PKG_VERSION"),
            l.data_dir.display()
        );
        first_run_hint(&app, scheme).await;
        app.run(stop).await.map_err(|e| e.operator_message())
    })?;
    tracing::info!("stopped");
    Ok(())
}
