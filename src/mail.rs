//! E-mail out through the `[mail]` SMTP relay, with lettre (its rustls and ring backends,
//! as the rest of innkeep): building a message (plain text and HTML alternatives, the
//! `Message-ID` innkeep chose when it stored the message, so a message sent again after a
//! crash is recognisably the same one), sending it, and reading the relay's answer as sent,
//! deferred (a 4xx or no answer: try again later) or bounced (a 5xx: the relay will never
//! take it). Blocking: callers run it on the blocking pool.

use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Message, SmtpTransport, Transport};

use crate::config::mail::{MailConfig, Security};

/// How long a relay may take to answer.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A message ready to go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// The recipient's address.
    pub to: String,
    /// The subject line.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// The HTML body.
    pub html: String,
    /// The `Message-ID`, with its angle brackets.
    pub message_id: String,
    /// Files sent with it (an invoice's PDF and XML).
    pub files: Vec<crate::store::messages::Attachment>,
}

/// What the relay said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// Taken (its answer).
    Sent(String),
    /// Not now: a temporary refusal or no answer (why).
    Deferred(String),
    /// Never: a permanent refusal (why).
    Bounced(String),
}

/// The transport `cfg` describes.
pub fn transport(cfg: &MailConfig) -> Result<SmtpTransport, String> {
    let builder = match cfg.security {
        Security::Starttls => SmtpTransport::starttls_relay(&cfg.host),
        Security::Tls => SmtpTransport::relay(&cfg.host),
        Security::None => Ok(SmtpTransport::builder_dangerous(&cfg.host)),
    }
    .map_err(|e| format!("mail.host {:?}: {e}", cfg.host))?;
    let mut builder = builder.port(cfg.port).timeout(Some(TIMEOUT));
    if let Some(user) = &cfg.user {
        builder = builder.credentials(Credentials::new(
            user.clone(),
            cfg.password.expose().to_string(),
        ));
    }
    Ok(builder.build())
}

/// `m` as a message from `cfg`'s sender.
pub fn message(cfg: &MailConfig, m: &Outgoing) -> Result<Message, String> {
    let from: Mailbox = cfg
        .from
        .parse()
        .map_err(|e| format!("mail.from {:?}: {e}", cfg.from))?;
    let to: Mailbox =
        m.to.parse()
            .map_err(|e| format!("the address {:?} cannot be written to: {e}", m.to))?;
    let mut b = Message::builder()
        .from(from)
        .to(to)
        .subject(m.subject.clone())
        .message_id(Some(m.message_id.clone()));
    if let Some(r) = &cfg.reply_to {
        b = b.reply_to(r.parse().map_err(|e| format!("mail.reply_to {r:?}: {e}"))?);
    }
    let bodies = MultiPart::alternative_plain_html(m.text.clone(), m.html.clone());
    let body = if m.files.is_empty() {
        bodies
    } else {
        let mut mixed = MultiPart::mixed().multipart(bodies);
        for f in &m.files {
            let kind = ContentType::parse(&f.content_type)
                .map_err(|e| format!("{}: {e}", f.content_type))?;
            mixed =
                mixed.singlepart(Attachment::new(f.filename.clone()).body(f.body.clone(), kind));
        }
        mixed
    };
    b.multipart(body).map_err(|e| e.to_string())
}

/// Sends `m` through `transport`.
pub fn send(transport: &SmtpTransport, cfg: &MailConfig, m: &Outgoing) -> Sent {
    let message = match message(cfg, m) {
        Ok(msg) => msg,
        Err(why) => return Sent::Bounced(why),
    };
    match transport.send(&message) {
        Ok(r) => Sent::Sent(r.message().collect::<Vec<_>>().join(" ")),
        Err(e) if e.is_permanent() => Sent::Bounced(format!("the mail relay refused it: {e}")),
        Err(e) => Sent::Deferred(format!("the mail relay did not take it now: {e}")),
    }
}

/// Whether the relay of `cfg` answers and (when a user is set) takes its sign-in.
pub fn check(cfg: &MailConfig) -> Result<(), String> {
    let t = transport(cfg)?;
    match t.test_connection() {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "the mail relay {}:{} did not answer",
            cfg.host, cfg.port
        )),
        Err(e) => Err(format!("the mail relay {}:{}: {e}", cfg.host, cfg.port)),
    }
}
