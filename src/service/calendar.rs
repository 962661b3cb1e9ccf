//! The compliance calendar (`GET /v1/compliance/calendar`, the desk's page, `innkeep
//! doctor`): every statutory duty of the property due in a range, with its deadline, its
//! state and its proof; and the inspection pack, a ZIP of those proofs. The compliance
//! scope.

use std::io::Write;

use chrono::NaiveDate;

use crate::domain::calendar::{self, Due, Duty, DutyState, Sent};
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::{ComplianceCalendar, ComplianceDuty, Date, Principal};
use crate::service::Services;
use crate::service::reports::check_range;
use crate::store;

/// What a duty is and what to do, in English (the desk words it in its language).
fn about(duty: Duty) -> &'static str {
    match duty {
        Duty::GuestRegistration => {
            "Guests registered with the police or the tourist board within 24 hours of arrival; innkeep sends them."
        }
        Duty::GuestDeparture => {
            "Guests' departures reported to the tourist board; innkeep sends them."
        }
        Duty::GuestWithdrawal => {
            "Registrations withdrawn after an undone check-in; innkeep sends them."
        }
        Duty::FiscalReceipt => "Every receipt fiscalized within its window; innkeep sends them.",
        Duty::FiscalPaymentChange => {
            "A receipt's changed payment method reported; innkeep sends it."
        }
        Duty::Einvoice => "E-invoices delivered through the intermediary; innkeep sends them.",
        Duty::EinvoicePayments => {
            "The payments of e-invoices reported by the 20th of the next month; innkeep sends them."
        }
        Duty::CashRegisterClosure => {
            "The cash register's daily closure, after which it sends the day's takings; closing the day in innkeep asks for it."
        }
        Duty::IstatMovement => {
            "The month's guest movement (ISTAT C/59) filed on the region's platform; innkeep does not file it yet. The day is the earliest regions ask for: check your region's."
        }
        Duty::CityTaxReturn => {
            "The year's city-tax return filed with the Ministry of Economy's system by 30 June; innkeep does not file it yet."
        }
        Duty::CertificateRenewal => {
            "The fiscal certificate renewed before it expires, or receipts can no longer be fiscalized."
        }
    }
}

fn duty_of(kind: &str) -> Option<Duty> {
    Duty::parse(kind)
}

/// The calendar from `from` to `to` (exclusive, at most 366 days).
pub async fn calendar(
    svc: &Services,
    p: &Principal,
    (from, to): (Date, Date),
) -> AppResult<ComplianceCalendar> {
    p.require(Scope::Compliance)?;
    check_range(from.0, to.0)?;
    let clock = svc.db().clock().clone();
    let fiscal = svc.compliance().fiscal.clone();
    let register = fiscal.name() == crate::compliance::rt::NAME;
    let certificate = svc.compliance().fiscal.certificate();
    let (sent, closes, first, settings) = svc
        .db()
        .read(move |c| {
            let wide = |d: NaiveDate| format!("{d}T00:00:00Z");
            let sent = store::calendar::due(
                c,
                &wide(from.0 - chrono::Days::new(1)),
                &wide(to.0 + chrono::Days::new(1)),
                false,
            )?;
            let closes = store::calendar::register_days(c, &from.0.to_string(), &to.0.to_string())?;
            let first = store::calendar::first_day(c)?;
            Ok((sent, closes, first, store::settings::get(c)?))
        })
        .await?;
    let now = clock.now_text();
    let today = clock.today_in(&settings.time_zone);
    let local = |at: &str| crate::clock::local_time(at, &settings.time_zone).map(|(d, _)| d);
    let rows: Vec<Sent<'_>> = sent
        .iter()
        .filter_map(|s| {
            let due = local(&s.5)?;
            Some(Sent {
                duty: duty_of(&s.1)?,
                due,
                status: &s.4,
                late: s.5 < now,
            })
        })
        .filter(|s| s.due >= from.0 && s.due < to.0)
        .collect();
    let mut duties = calendar::submitted(&rows);
    let since = first.and_then(|d| d.parse::<NaiveDate>().ok());
    if let (true, Some(since)) = (register, since) {
        let closed: Vec<NaiveDate> = closes.iter().filter_map(|d| d.parse().ok()).collect();
        duties.extend(calendar::closures(from.0.max(since), to.0, today, &closed));
    }
    if settings.country.as_deref() == Some("IT") {
        duties.extend(calendar::italian_filings(from.0, to.0, today));
    }
    if let Some((_, expires)) = certificate {
        let day = expires.date_naive();
        if day >= from.0 && day < to.0 {
            duties.push(Due {
                duty: Duty::CertificateRenewal,
                period: day.to_string(),
                due: day,
                state: if day <= today {
                    DutyState::Overdue
                } else {
                    DutyState::Upcoming
                },
                count: 1,
                done: 0,
            });
        }
    }
    duties.sort_by(|a, b| (a.due, a.duty.as_str()).cmp(&(b.due, b.duty.as_str())));
    Ok(ComplianceCalendar {
        from,
        to,
        duties: duties
            .into_iter()
            .map(|d| ComplianceDuty {
                about: about(d.duty).to_string(),
                duty: d.duty,
                period: d.period,
                due: Date(d.due),
                state: d.state,
                count: d.count,
                done: d.done,
            })
            .collect(),
    })
}

/// A CSV field, quoted when it must be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(rows: Vec<Vec<String>>) -> String {
    rows.into_iter()
        .map(|r| {
            let mut line = r.iter().map(|f| field(f)).collect::<Vec<_>>().join(",");
            line.push_str("\r\n");
            line
        })
        .collect()
}

/// The inspection pack from `from` to `to`: a ZIP with a README, the calendar (CSV), every
/// submission made or due in the range (a CSV with each authority's reference and the payload's
/// SHA-256, and each payload exactly as sent) and each closed day's certificate with its
/// hash.
pub async fn inspection_pack(
    svc: &Services,
    p: &Principal,
    (from, to): (Date, Date),
) -> AppResult<Vec<u8>> {
    let cal = calendar(svc, p, (from, to)).await?;
    let (sent, closes, receipts) = svc
        .db()
        .read(move |c| {
            let wide = |d: NaiveDate| format!("{d}T00:00:00Z");
            let (f, t) = (from.0.to_string(), to.0.to_string());
            let mut receipts = Vec::new();
            for (day, ..) in store::receipts::list(c, &f, &t)? {
                receipts.extend(store::receipts::get(c, &day)?.map(|pdf| (day, pdf)));
            }
            Ok((
                store::calendar::due(c, &wide(from.0), &wide(to.0), true)?,
                store::calendar::closes(c, &f, &t)?,
                receipts,
            ))
        })
        .await?;
    let zipped = (|| -> zip::result::ZipResult<Vec<u8>> {
        let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        let mut put = |name: &str, body: &[u8]| -> zip::result::ZipResult<()> {
            z.start_file(name, opts)?;
            z.write_all(body)?;
            Ok(())
        };
        put("README.txt", readme(from, to).as_bytes())?;
        let mut rows = vec![
            vec!["duty", "period", "due", "state", "count", "done"]
                .into_iter()
                .map(String::from)
                .collect::<Vec<_>>(),
        ];
        rows.extend(cal.duties.iter().map(|d| {
            vec![
                d.duty.as_str().to_string(),
                d.period.clone(),
                d.due.0.to_string(),
                d.state.as_str().to_string(),
                d.count.to_string(),
                d.done.to_string(),
            ]
        }));
        put("calendar.csv", csv(rows).as_bytes())?;
        let mut rows = vec![
            [
                "id",
                "kind",
                "scheme",
                "subject",
                "status",
                "due_at",
                "reference",
                "sha256",
                "sent_at",
                "updated_at",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for s in &sent {
            rows.push(vec![
                s.0.clone(),
                s.1.clone(),
                s.2.clone(),
                s.3.clone(),
                s.4.clone(),
                s.5.clone(),
                s.6.clone().unwrap_or_default(),
                s.7.clone(),
                s.9.clone(),
                s.10.clone(),
            ]);
            if !s.8.is_empty() {
                put(&format!("submissions/{}/{}.txt", s.1, s.0), s.8.as_bytes())?;
            }
        }
        put("submissions.csv", csv(rows).as_bytes())?;
        for (day, pdf) in &receipts {
            put(&format!("receipts/{day}.pdf"), pdf)?;
        }
        for (day, body, hash) in &closes {
            put(&format!("day-closes/{day}.json"), body.as_bytes())?;
            put(
                &format!("day-closes/{day}.sha256"),
                format!("{hash}\n").as_bytes(),
            )?;
        }
        Ok(z.finish()?.into_inner())
    })();
    zipped.map_err(|e| AppError::internal(format!("the inspection pack could not be written: {e}")))
}

fn readme(from: Date, to: Date) -> String {
    format!(
        "innkeep inspection pack, {} to {} (the day after the last).\r\n\r\n\
         calendar.csv      every statutory duty due in the range, its deadline and state\r\n\
         submissions.csv   every registration, receipt and e-invoice made or due in the range,\r\n\
         \x20                 with the authority's reference and the SHA-256 of what was sent\r\n\
         submissions/      what was sent to the authority, byte for byte\r\n\
         receipts/         the police's signed receipt of each day's registrations (Italy)\r\n\
         day-closes/       each closed day's certificate; its hash is the SHA-256 of the\r\n\
         \x20                 line \"innkeep day certificate 1\" and a newline, then the\r\n\
         \x20                 certificate, which names the previous day's hash\r\n",
        from.0, to.0
    )
}
