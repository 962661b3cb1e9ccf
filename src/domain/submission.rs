//! The lifecycle of a compliance submission and of an invoice's fiscal record, as edges the
//! services apply: a submission is sent from `queued` or `retrying` (and is answered while
//! `sending`, or found `sending` after a crash); what the authority answers moves it on; a
//! person retrying puts a refused or unclear one back in the queue. `accepted` is final.

use super::enums::{FiscalStatus, SubmissionStatus};

/// Whether a submission may move from `from` to `to`.
pub fn submission_may(from: SubmissionStatus, to: SubmissionStatus) -> bool {
    use SubmissionStatus as S;
    match from {
        S::Queued | S::Retrying | S::Sending => to != S::Queued,
        S::Rejected | S::ManualRequired | S::Unknown => to == S::Queued,
        S::Accepted => false,
    }
}

/// Whether the fiscal record of an invoice may move from `from` to `to`: a receipt waiting
/// or offline is answered; a failed one is answered again after a person's retry. Nothing
/// leaves `fiscalized` or `not_required`.
pub fn fiscal_may(from: FiscalStatus, to: FiscalStatus) -> bool {
    use FiscalStatus as F;
    matches!(from, F::Pending | F::Offline | F::Failed)
        && matches!(to, F::Fiscalized | F::Offline | F::Failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use SubmissionStatus as S;

    #[test]
    fn accepted_is_final_and_only_a_retry_requeues() {
        for to in S::ALL {
            assert!(!submission_may(S::Accepted, *to));
            assert_eq!(submission_may(S::Rejected, *to), *to == S::Queued);
        }
        assert!(submission_may(S::Sending, S::Accepted));
        assert!(submission_may(S::Queued, S::ManualRequired));
        assert!(!submission_may(S::Sending, S::Queued));
    }

    #[test]
    fn a_fiscalized_receipt_stays_fiscalized() {
        assert!(fiscal_may(FiscalStatus::Pending, FiscalStatus::Fiscalized));
        assert!(fiscal_may(FiscalStatus::Offline, FiscalStatus::Failed));
        assert!(!fiscal_may(FiscalStatus::Fiscalized, FiscalStatus::Failed));
        assert!(!fiscal_may(
            FiscalStatus::NotRequired,
            FiscalStatus::Pending
        ));
    }
}
