//! A throw-away PostgreSQL cluster for the hub's tests: `initdb` in a temporary directory
//! and `postgres` on a free loopback port, as `nobody` when the tests run as root (the
//! server refuses root). Found on `PATH` or in Debian's `/usr/lib/postgresql/*/bin`;
//! without it the hub's tests fail under `CI=true` and are skipped (with a message)
//! otherwise. Dropping the guard stops the server.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running cluster.
pub struct Postgres {
    child: Child,
    /// The connection string for the `hub` superuser, database `postgres`.
    pub url: String,
    port: u16,
    _dir: tempfile::TempDir,
}

fn bin_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("INNKEEP_PG_BIN") {
        return Some(PathBuf::from(d));
    }
    let on_path = std::env::var("PATH").ok().and_then(|p| {
        std::env::split_paths(&p)
            .find(|d| d.join("initdb").is_file() && d.join("postgres").is_file())
    });
    on_path.or_else(|| {
        let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|d| d.join("initdb").is_file())
            .collect();
        debian.sort();
        debian.pop()
    })
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn as_owner(cmd: &mut Command) -> &mut Command {
    if is_root() {
        cmd.uid(65534).gid(65534);
    }
    cmd
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Postgres {
    /// Starts a cluster, or `None` (outside CI) when PostgreSQL is not installed.
    pub async fn start() -> Option<Postgres> {
        let Some(bin) = bin_dir() else {
            assert!(
                std::env::var("CI").is_err(),
                "PostgreSQL (initdb, postgres) is needed for the hub's tests: apt-get install postgresql"
            );
            eprintln!("skipped: PostgreSQL is not installed (initdb and postgres not found)");
            return None;
        };
        let dir = tempfile::tempdir().expect("tempdir");
        if is_root() {
            std::os::unix::fs::chown(dir.path(), Some(65534), Some(65534)).expect("chown");
        }
        let data = dir.path().join("data");
        let out = as_owner(Command::new(bin.join("initdb")).args([
            "-U",
            "hub",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
            "-D",
        ]))
        .arg(&data)
        .output()
        .expect("initdb runs");
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = free_port();
        let child = as_owner(
            Command::new(bin.join("postgres"))
                .arg("-D")
                .arg(&data)
                .args([
                    "-p",
                    &port.to_string(),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-k",
                ]),
        )
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("postgres starts");
        let pg = Postgres {
            child,
            url: format!("host=127.0.0.1 port={port} user=hub dbname=postgres"),
            port,
            _dir: dir,
        };
        pg.wait_ready(&data).await;
        Some(pg)
    }

    async fn wait_ready(&self, data: &Path) {
        for _ in 0..200 {
            if tokio_postgres::connect(&self.url, tokio_postgres::NoTls)
                .await
                .is_ok()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("PostgreSQL in {} did not start", data.display());
    }

    /// A connection string for database `db` (created by [`Postgres::database`]).
    pub fn url_for(&self, db: &str) -> String {
        format!("host=127.0.0.1 port={} user=hub dbname={db}", self.port)
    }

    /// A client connected to `db`.
    pub async fn client(&self, db: &str) -> tokio_postgres::Client {
        let (client, conn) = tokio_postgres::connect(&self.url_for(db), tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(conn);
        client
    }

    /// Creates database `db`; returns its connection string.
    pub async fn database(&self, db: &str) -> String {
        self.client("postgres")
            .await
            .batch_execute(&format!("CREATE DATABASE {db}"))
            .await
            .expect("create database");
        self.url_for(db)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // SIGINT: PostgreSQL's fast shutdown.
        // SAFETY: kill with a child's pid we own has no memory effects.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGINT);
        }
        let _ = self.child.wait();
    }
}
