//! The HTTP server every authority simulator runs: bound to a free local port, ready when
//! `serve` returns, stopped when dropped.

use std::net::SocketAddr;
use std::time::Duration;

use poem::Endpoint;

/// A running simulator server (aborted on drop).
pub struct Served {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `app` on a free port of 127.0.0.1 and waits until it accepts connections.
pub async fn serve(app: impl Endpoint + 'static) -> Served {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let acceptor = poem::listener::TcpListener::bind(addr.to_string());
    let task = tokio::spawn(async move {
        let _ = poem::Server::new(acceptor).run(app).await;
    });
    for _ in 0..50 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Served { addr, task }
}
