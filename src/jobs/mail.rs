//! Sending guests' messages from the queue: one `mail` job per message
//! (`service::outbox` keeps its state); the SMTP conversation runs on the blocking pool.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::{Handler, blocking};
use crate::config::mail::MailConfig;
use crate::db::Db;
use crate::domain::enums::JobKind;
use crate::mail::Sent;
use crate::service::outbox;
use crate::store::jobs::Job;

/// The mail handler.
pub struct MailHandler {
    cfg: Arc<MailConfig>,
    /// The relay's transport, made once: its pool keeps connections open between messages.
    transport: Result<lettre::SmtpTransport, String>,
}

impl MailHandler {
    /// A handler sending through the relay of `cfg`.
    pub fn new(cfg: MailConfig) -> MailHandler {
        MailHandler {
            transport: crate::mail::transport(&cfg),
            cfg: Arc::new(cfg),
        }
    }

    async fn send(&self, db: &Db, job: &Job) -> crate::error::AppResult<()> {
        let (m, files) = match outbox::start(db, job.subject_id.clone(), job.id).await? {
            outbox::Start::Send(m, files) => (*m, files),
            outbox::Start::Later => return Ok(()),
            outbox::Start::Done => {
                return db
                    .write({
                        let id = job.id;
                        move |tx| crate::store::jobs::finish(tx, id)
                    })
                    .await;
            }
        };
        let (cfg, transport) = (self.cfg.clone(), self.transport.clone());
        let out = crate::mail::Outgoing {
            to: m.recipient.clone(),
            subject: m.subject.clone(),
            text: m.body_text.clone(),
            html: m.body_html.clone(),
            message_id: m.message_id.clone(),
            files,
        };
        let sent = blocking(move || match transport {
            Ok(t) => crate::mail::send(&t, &cfg, &out),
            Err(why) => Sent::Deferred(why),
        })
        .await?;
        outbox::finish(db, job.id, m, sent).await
    }
}

impl Handler for MailHandler {
    fn kind(&self) -> &'static str {
        JobKind::Mail.as_str()
    }

    fn run<'a>(&'a self, db: &'a Db, job: Job) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            if let Err(e) = self.send(db, &job).await {
                tracing::error!(error = %e, message = %job.subject_id, "recording a message's sending failed; it will run again");
            }
        })
    }
}
