//! `Type=notify`: the real binary tells a service manager it is ready, pings the watchdog
//! while it works, and says when it stops, over a real notification socket.

use std::os::unix::net::UnixDatagram;
use std::time::Duration;

use crate::support::binary::{Killed, free_port, innkeep, terminate};

fn next(socket: &UnixDatagram) -> String {
    let mut buf = [0u8; 1024];
    let n = socket.recv(&mut buf).expect("a notification in time");
    String::from_utf8_lossy(&buf[..n]).trim_end().to_string()
}

#[tokio::test]
async fn ready_watchdog_and_stopping_reach_the_service_manager() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notify.sock");
    let socket = UnixDatagram::bind(&path).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let port = free_port();
    let mut child = Killed(
        innkeep(&dir.path().join("data"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .env("NOTIFY_SOCKET", &path)
            .env("WATCHDOG_USEC", "400000")
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let ready = next(&socket);
    assert!(ready.contains("READY=1"), "{ready}");
    assert!(
        ready.contains(&format!("STATUS=serving http://127.0.0.1:{port}")),
        "{ready}"
    );
    // Ready means ready: the server answers /ready at once.
    let r = reqwest::get(format!("http://127.0.0.1:{port}/ready"))
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    for _ in 0..2 {
        assert_eq!(next(&socket), "WATCHDOG=1");
    }
    assert!(terminate(&mut child.0).success());
    let mut last = next(&socket);
    while last == "WATCHDOG=1" {
        last = next(&socket);
    }
    assert_eq!(last, "STOPPING=1");
}
