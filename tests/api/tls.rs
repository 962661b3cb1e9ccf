//! HTTPS: with `[server] tls_cert` and `tls_key`, innkeep answers over TLS with that
//! certificate, the desk's cookies are `Secure`, the OAuth issuer is https; a key that does
//! not go with the certificate stops the start with the file names.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use crate::support::binary::{Killed, free_port, innkeep, terminate};

/// A self-signed certificate for localhost and 127.0.0.1: (cert PEM, key PEM, cert DER).
fn certificate() -> (String, String, Vec<u8>) {
    let c =
        rcgen::generate_simple_self_signed(vec!["localhost".into(), "127.0.0.1".into()]).unwrap();
    (
        c.cert.pem(),
        c.signing_key.serialize_pem(),
        c.cert.der().to_vec(),
    )
}

/// One HTTP/1.1 GET over TLS, trusting only `der`: the response head and body as text.
/// (A connection that arrives in the instant before the server has taken its certificate
/// is dropped, so the first answer is waited for.)
fn get(port: u16, der: &[u8], path: &str) -> String {
    for _ in 0..50 {
        if let Ok(answer) = try_get(port, der, path) {
            return answer;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("no answer over TLS to {path}");
}

fn try_get(port: u16, der: &[u8], path: &str) -> std::io::Result<String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls::pki_types::CertificateDer::from(der.to_vec()))
        .unwrap();
    let config = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let mut conn = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    let mut sock = TcpStream::connect(("127.0.0.1", port))?;
    let mut tls = rustls::Stream::new(&mut conn, &mut sock);
    write!(
        tls,
        "GET {path} HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n"
    )?;
    let mut out = Vec::new();
    let _ = tls.read_to_end(&mut out);
    Ok(String::from_utf8_lossy(&out).into_owned())
}

#[test]
fn innkeep_serves_https_with_secure_cookies() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key, der) = certificate();
    std::fs::write(dir.path().join("tls.crt"), cert).unwrap();
    std::fs::write(dir.path().join("tls.key"), key).unwrap();
    let port = free_port();
    std::fs::write(
        dir.path().join("innkeep.toml"),
        format!("[server]\nlisten = \"127.0.0.1:{port}\"\ntls_cert = \"tls.crt\"\ntls_key = \"tls.key\"\n"),
    )
    .unwrap();
    // A member of staff, so that /login signs in (a new installation shows the first run).
    let made = innkeep(dir.path())
        .args(["users", "create", "--username", "admin", "--role", "admin"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let mut server = Killed(
        innkeep(dir.path())
            .arg("serve")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let ready = get(port, &der, "/ready");
    assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
    // A client that connects and never starts its handshake holds only its own connection.
    let _stalled = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let again = get(port, &der, "/ready");
    assert!(again.starts_with("HTTP/1.1 200"), "{again}");
    let login = get(port, &der, "/login");
    let cookie = login
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap_or_else(|| panic!("no cookie: {login}"));
    assert!(
        cookie.contains("HttpOnly") && cookie.ends_with("; Secure"),
        "{cookie}"
    );
    let meta = get(port, &der, "/.well-known/oauth-authorization-server");
    assert!(meta.contains("\"issuer\":\"https://"), "{meta}");
    // Plain HTTP on the same port is not served.
    let mut plain = TcpStream::connect(("127.0.0.1", port)).unwrap();
    plain
        .write_all(b"GET /ready HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut answer = Vec::new();
    let _ = plain.read_to_end(&mut answer);
    assert!(!String::from_utf8_lossy(&answer).contains("200 OK"));
    assert!(terminate(&mut server.0).success());
}

#[test]
fn a_key_that_is_not_the_certificates_is_named_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, _, _) = certificate();
    let (_, other_key, _) = certificate();
    std::fs::write(dir.path().join("tls.crt"), cert).unwrap();
    std::fs::write(dir.path().join("tls.key"), other_key).unwrap();
    std::fs::write(
        dir.path().join("innkeep.toml"),
        "[server]\nlisten = \"127.0.0.1:0\"\ntls_cert = \"tls.crt\"\ntls_key = \"tls.key\"\n",
    )
    .unwrap();
    let out = innkeep(dir.path()).arg("serve").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("does not go with the certificate") && err.contains("tls.key"),
        "{err}"
    );
    std::fs::write(
        dir.path().join("innkeep.toml"),
        "[server]\ntls_cert = \"tls.crt\"\n",
    )
    .unwrap();
    let out = innkeep(dir.path())
        .args(["config", "check"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tls_cert and server.tls_key go together"),
        "{err}"
    );
}
