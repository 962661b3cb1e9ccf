//! An SMTP relay double (RFC 5321, plain, no authentication): it greets, answers EHLO,
//! MAIL, RCPT, DATA (the message up to the lone dot, dot-unstuffed), RSET, NOOP and QUIT,
//! and keeps every message it took. It can be told to refuse the next messages for now
//! (451) or for good (550), as a relay does.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// A message the relay took.
#[derive(Debug, Clone)]
pub struct Taken {
    /// The envelope's recipients.
    pub to: Vec<String>,
    /// The message as sent (headers and body).
    pub data: String,
}

impl Taken {
    /// A header's value (the first, unfolded), by name.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next()?;
        let mut lines = head.split("\r\n").peekable();
        while let Some(line) = lines.next() {
            let Some((k, v)) = line.split_once(':') else {
                continue;
            };
            if k.eq_ignore_ascii_case(name) {
                let mut value = v.trim().to_string();
                while let Some(next) = lines.peek().filter(|l| l.starts_with([' ', '\t'])) {
                    value.push(' ');
                    value.push_str(next.trim());
                    lines.next();
                }
                return Some(value);
            }
        }
        None
    }
}

impl Taken {
    /// The message with its quoted-printable parts decoded (soft line breaks joined, `=XX`
    /// read as bytes), to read a long link whole.
    pub fn decoded(&self) -> String {
        let joined = self.data.replace("=\r\n", "");
        let bytes = joined.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if bytes[i] == b'='
                && i + 2 < bytes.len()
                && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
            {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
            out.push(bytes[i]);
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

impl Taken {
    /// The files attached: (file name, bytes), in order.
    pub fn attachments(&self) -> Vec<(String, Vec<u8>)> {
        use base64::Engine;
        let mut out = Vec::new();
        for part in self.data.split("\r\n--") {
            let Some((head, body)) = part.split_once("\r\n\r\n") else {
                continue;
            };
            let lower = head.to_ascii_lowercase();
            if !lower.contains("content-disposition: attachment") {
                continue;
            }
            let Some(at) = head.find("filename=\"") else {
                continue;
            };
            let rest = &head[at + "filename=\"".len()..];
            let name = rest.split('"').next().unwrap_or_default().to_string();
            let bytes = if lower.contains("content-transfer-encoding: base64") {
                let b64: String = body.chars().filter(|c| !c.is_whitespace()).collect();
                base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .expect("an attachment in base64")
            } else if lower.contains("content-transfer-encoding: quoted-printable") {
                let part = Taken {
                    to: Vec::new(),
                    data: body.to_string(),
                };
                part.decoded().into_bytes()
            } else {
                body.as_bytes().to_vec()
            };
            out.push((name, bytes));
        }
        out
    }
}

/// What to answer the next messages' DATA with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refuse {
    /// 451: try again later.
    ForNow,
    /// 550: never.
    ForGood,
}

#[derive(Default)]
struct State {
    taken: Vec<Taken>,
    refuse: Vec<Refuse>,
}

/// A running relay double (stopped when dropped).
pub struct Relay {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Relay {
    /// A relay on a free port of 127.0.0.1.
    pub async fn start() -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(session(socket, shared.clone()));
            }
        });
        Relay { addr, state, task }
    }

    /// A `[mail]` section sending through this relay as `from` (plain SMTP, no pre-arrival
    /// message unless the test asks for one).
    pub fn config(&self, from: &str, reply_to: Option<&str>) -> innkeep::config::mail::MailConfig {
        innkeep::config::mail::MailConfig {
            host: "127.0.0.1".into(),
            port: self.addr.port(),
            security: innkeep::config::mail::Security::None,
            user: None,
            password: Default::default(),
            from: from.into(),
            reply_to: reply_to.map(str::to_string),
            pre_arrival_days: 0,
            public_url: None,
        }
    }

    /// The next messages are refused so, one each.
    pub fn refuse(&self, how: &[Refuse]) {
        self.state.lock().unwrap().refuse.extend_from_slice(how);
    }

    /// Every message taken so far.
    pub fn taken(&self) -> Vec<Taken> {
        self.state.lock().unwrap().taken.clone()
    }

    /// Waits (at most `wait`) until `n` messages were taken; all of them.
    pub async fn wait_for(&self, n: usize, wait: Duration) -> Vec<Taken> {
        let until = std::time::Instant::now() + wait;
        loop {
            let taken = self.taken();
            if taken.len() >= n || std::time::Instant::now() > until {
                return taken;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

async fn session(socket: tokio::net::TcpStream, state: Arc<Mutex<State>>) {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    let say = |w: &str| format!("{w}\r\n");
    if write
        .write_all(say("220 relay.test ESMTP double").as_bytes())
        .await
        .is_err()
    {
        return;
    }
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let verb = line.trim_end().to_ascii_uppercase();
        let answer = if verb.starts_with("EHLO") {
            "250-relay.test\r\n250-8BITMIME\r\n250 SMTPUTF8".to_string()
        } else if verb.starts_with("HELO") || verb.starts_with("NOOP") {
            "250 OK".into()
        } else if verb.starts_with("MAIL FROM") || verb.starts_with("RSET") {
            to.clear();
            "250 OK".into()
        } else if verb.starts_with("RCPT TO") {
            let addr = line.trim_end()[8..].trim().trim_matches(['<', '>']);
            to.push(addr.to_string());
            "250 OK".into()
        } else if verb.starts_with("DATA") {
            if write
                .write_all(say("354 go ahead").as_bytes())
                .await
                .is_err()
            {
                return;
            }
            let mut data = String::new();
            loop {
                line.clear();
                if lines.read_line(&mut line).await.unwrap_or(0) == 0 {
                    return;
                }
                if line == ".\r\n" {
                    break;
                }
                let unstuffed = line.strip_prefix('.').unwrap_or(&line);
                data.push_str(unstuffed);
            }
            let mut s = state.lock().unwrap();
            match (!s.refuse.is_empty()).then(|| s.refuse.remove(0)) {
                Some(Refuse::ForNow) => "451 4.3.0 try again later".into(),
                Some(Refuse::ForGood) => "550 5.1.1 no such mailbox".into(),
                None => {
                    s.taken.push(Taken {
                        to: std::mem::take(&mut to),
                        data,
                    });
                    "250 2.0.0 queued".into()
                }
            }
        } else if verb.starts_with("QUIT") {
            let _ = write.write_all(say("221 bye").as_bytes()).await;
            return;
        } else {
            "502 command not implemented".into()
        };
        if write.write_all(say(&answer).as_bytes()).await.is_err() {
            return;
        }
    }
}
