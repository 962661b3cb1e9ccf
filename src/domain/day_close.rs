//! The day close's pure rules: which day may be closed next, the checks a closed day must
//! pass (the same invariants the year in a box holds the books to), and the certificate's
//! hash chain.

use chrono::NaiveDate;

string_enum! {
    /// A check the day close makes and writes on the certificate.
    pub enum CheckName {
        /// Every stay checked out that day billed each of its nights exactly once.
        NightsBilledOnce = "nights_billed_once",
        /// Invoiced − credited = paid + outstanding, and the payments recorded add up to
        /// what the invoices say was paid.
        MoneyBalances = "money_balances",
        /// Every numbering series runs 1, 2, 3, … without a gap.
        NumberingGapless = "numbering_gapless",
        /// Every guest registration accepted, or still inside its deadline.
        RegistrationsAccepted = "registrations_accepted",
        /// Every fiscal document accepted, or still inside its window.
        FiscalDocumentsSettled = "fiscal_documents_settled",
        /// The cash counted equals the cash recorded.
        CashAgrees = "cash_agrees",
    }
}

/// Why a day cannot be closed now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotNow {
    /// The day has not ended yet in the property's time zone.
    NotOver,
    /// Days are closed in order: this one must come first.
    NotNext(NaiveDate),
}

/// Whether `day` may be closed when `today` is the property's date and `last` the last day
/// closed: a day is closed once it is over, and days close in order without a gap (the very
/// first close may be any day that is over: the day the hotel starts closing its books).
pub fn may_close(day: NaiveDate, today: NaiveDate, last: Option<NaiveDate>) -> Result<(), NotNow> {
    if let Some(next) = last.and_then(|l| l.succ_opt())
        && day != next
    {
        return Err(NotNow::NotNext(next));
    }
    if day >= today {
        return Err(NotNow::NotOver);
    }
    Ok(())
}

/// The day a close closes when none is named: the day after the last one closed, or
/// yesterday for the first close.
pub fn next_day(today: NaiveDate, last: Option<NaiveDate>) -> NaiveDate {
    match last {
        Some(l) => l.succ_opt().unwrap_or(l),
        None => today.pred_opt().unwrap_or(today),
    }
}

/// The series whose numbers are not 1..=count: (series, numbers issued, highest number).
pub fn gaps(series: &[(String, i64, i64)]) -> Vec<String> {
    series
        .iter()
        .filter(|(_, count, max)| count != max)
        .map(|(s, count, max)| format!("{s}: {count} numbers, the highest {max}"))
        .collect()
}

/// The books' identity: invoiced − credited = paid + outstanding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Books {
    /// Gross of every invoice.
    pub invoiced: i64,
    /// Gross of every credit note, as a positive amount.
    pub credited: i64,
    /// What the invoices and credit notes record as paid.
    pub paid: i64,
    /// What invoices still open leave to pay.
    pub outstanding: i64,
    /// The payments and refunds recorded one by one (refunds negative).
    pub recorded: i64,
}

impl Books {
    /// Where the books do not balance, in words (empty when they do).
    pub fn faults(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.invoiced - self.credited != self.paid + self.outstanding {
            out.push(format!(
                "invoiced {} - credited {} is not paid {} + outstanding {}",
                self.invoiced, self.credited, self.paid, self.outstanding
            ));
        }
        if self.paid != self.recorded {
            out.push(format!(
                "the invoices say {} was paid, the payments recorded add up to {}",
                self.paid, self.recorded
            ));
        }
        out
    }
}

/// The stays whose nights are not billed exactly once: (code, nights, nights billed).
pub fn unbilled(stays: &[(String, i64, i64)]) -> Vec<String> {
    stays
        .iter()
        .filter(|(_, nights, billed)| nights != billed)
        .map(|(code, nights, billed)| format!("{code}: {nights} nights, {billed} billed"))
        .collect()
}

/// What a certificate's hash is taken over: a fixed label, then its body (which names the
/// previous certificate's hash, so each day seals the chain before it).
pub fn seal(body: &str) -> String {
    let mut text = String::from("innkeep day certificate 1\n");
    text.push_str(body);
    super::digest::sha256_hex(text.as_bytes())
}

/// A stored certificate: its day, the previous hash its body names, its hash, its body.
pub struct Link<'a> {
    /// The day closed.
    pub day: NaiveDate,
    /// The hash the body names as the previous one.
    pub previous: Option<&'a str>,
    /// The hash stored.
    pub hash: &'a str,
    /// The body stored.
    pub body: &'a str,
}

/// The first day whose certificate does not verify, oldest first: its body changed after it
/// was sealed, or it does not name the hash of the day before it.
pub fn broken(chain: &[Link<'_>]) -> Option<NaiveDate> {
    let mut before: Option<&str> = None;
    for link in chain {
        if seal(link.body) != link.hash || link.previous != before {
            return Some(link.day);
        }
        before = Some(link.hash);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, n).unwrap()
    }

    #[test]
    fn days_close_in_order_once_over() {
        assert_eq!(may_close(d(27), d(28), None), Ok(()));
        assert_eq!(may_close(d(28), d(28), None), Err(NotNow::NotOver));
        assert_eq!(may_close(d(27), d(28), Some(d(26))), Ok(()));
        assert_eq!(
            may_close(d(27), d(28), Some(d(25))),
            Err(NotNow::NotNext(d(26)))
        );
        assert_eq!(
            may_close(d(26), d(28), Some(d(26))),
            Err(NotNow::NotNext(d(27)))
        );
        assert_eq!(next_day(d(28), None), d(27));
        assert_eq!(next_day(d(28), Some(d(20))), d(21));
    }

    #[test]
    fn books_gaps_and_nights_say_what_is_wrong() {
        let fine = Books {
            invoiced: 1000,
            credited: 200,
            paid: 500,
            outstanding: 300,
            recorded: 500,
        };
        assert!(fine.faults().is_empty());
        let off = Books {
            recorded: 400,
            ..fine
        };
        assert_eq!(off.faults().len(), 1);
        assert!(gaps(&[("2026".into(), 3, 3)]).is_empty());
        assert_eq!(gaps(&[("2026".into(), 3, 4)]).len(), 1);
        assert_eq!(
            unbilled(&[("A".into(), 2, 2), ("B".into(), 3, 2)]),
            ["B: 3 nights, 2 billed"]
        );
    }

    #[test]
    fn the_chain_breaks_where_a_body_changed_or_a_link_is_missing() {
        let (a, b) = ("{\"day\":1}", "{\"day\":2}");
        let (ha, hb) = (seal(a), seal(b));
        let chain = |body_b: &'static str, prev_b: Option<&'static str>| {
            vec![
                (d(1), None, ha.clone(), a),
                (d(2), prev_b, hb.clone(), body_b),
            ]
        };
        let check = |links: Vec<(NaiveDate, Option<&str>, String, &str)>| {
            let links: Vec<Link<'_>> = links
                .iter()
                .map(|(day, previous, hash, body)| Link {
                    day: *day,
                    previous: *previous,
                    hash,
                    body,
                })
                .collect();
            broken(&links)
        };
        let ha_static: &'static str = Box::leak(ha.clone().into_boxed_str());
        assert_eq!(check(chain(b, Some(ha_static))), None);
        assert_eq!(check(chain("{\"day\":3}", Some(ha_static))), Some(d(2)));
        assert_eq!(check(chain(b, None)), Some(d(2)));
    }
}
