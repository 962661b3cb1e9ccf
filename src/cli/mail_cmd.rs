//! `innkeep mail test ADDRESS`: one message through the `[mail]` relay, at once, to see
//! that guests' messages will leave.

use clap::Subcommand;

use super::Loaded;

/// What to do with the mail relay.
#[derive(Debug, Subcommand)]
pub enum MailCommand {
    /// Send a test message to ADDRESS through the `[mail]` relay now, and say what the relay
    /// answered.
    Test {
        /// Where to send it, such as you@hotel.example.
        address: String,
    },
}

/// `innkeep mail …`
pub fn mail(l: &Loaded, command: &MailCommand) -> Result<(), String> {
    let Some(cfg) = l.config.mail.clone() else {
        return Err(
            "no mail relay is configured: add a [mail] section (see the book's Configuration page)"
                .into(),
        );
    };
    match command {
        MailCommand::Test { address } => {
            if !crate::config::mail::is_mailbox(address) {
                return Err(format!("{address:?} is not an e-mail address"));
            }
            let message = crate::mail::Outgoing {
                to: address.clone(),
                subject: "innkeep: a test message".into(),
                files: Vec::new(),
                text: format!(
                    "This message comes from innkeep through the mail relay {}:{}. If you read it, guests' messages will leave too.",
                    cfg.host, cfg.port
                ),
                html: format!(
                    "<p>This message comes from innkeep through the mail relay {}:{}. If you read it, guests' messages will leave too.</p>",
                    cfg.host, cfg.port
                ),
                message_id: format!("<test.{}@innkeep>", crate::ids::new("msg")),
            };
            let transport = crate::mail::transport(&cfg)?;
            match crate::mail::send(&transport, &cfg, &message) {
                crate::mail::Sent::Sent(answer) => {
                    println!("The relay took the message for {address} ({answer}).");
                    Ok(())
                }
                crate::mail::Sent::Deferred(why) | crate::mail::Sent::Bounced(why) => Err(why),
            }
        }
    }
}
