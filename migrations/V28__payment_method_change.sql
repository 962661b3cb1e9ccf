-- The law's change of payment method (Croatia: CIS's PromijeniNacPlac, on the day of issue):
-- an issued invoice's payment method may be corrected, never cleared, and never once a credit
-- note reversed it. Everything else about an issued invoice stays fixed, as before.
DROP TRIGGER invoices_immutable;
CREATE TRIGGER invoices_immutable BEFORE UPDATE ON invoices
WHEN OLD.id IS NOT NEW.id OR OLD.series IS NOT NEW.series OR OLD.seq IS NOT NEW.seq
  OR OLD.number IS NOT NEW.number OR OLD.kind IS NOT NEW.kind
  OR OLD.reservation_id IS NOT NEW.reservation_id OR OLD.guest_id IS NOT NEW.guest_id
  OR OLD.bill_to IS NOT NEW.bill_to OR OLD.issue_date IS NOT NEW.issue_date
  OR OLD.currency IS NOT NEW.currency
  OR (OLD.payment_method IS NOT NEW.payment_method
      AND (NEW.payment_method IS NULL OR OLD.status = 'cancelled'))
  OR OLD.net IS NOT NEW.net OR OLD.tax IS NOT NEW.tax OR OLD.gross IS NOT NEW.gross
  OR OLD.corrects_invoice_id IS NOT NEW.corrects_invoice_id OR OLD.reason IS NOT NEW.reason
  OR OLD.created_at IS NOT NEW.created_at
  OR (OLD.status IS NOT NEW.status AND NOT (
        (OLD.status = 'issued' AND NEW.status IN ('paid', 'cancelled'))
     OR (OLD.status = 'paid' AND NEW.status = 'cancelled')))
  OR (OLD.kind = 'invoice' AND NEW.paid_amount < OLD.paid_amount)
  OR (OLD.kind = 'credit_note' AND NEW.paid_amount > OLD.paid_amount)
BEGIN
    SELECT RAISE(ABORT, 'issued invoices are immutable: only status, payments, the payment method (on an invoice not reversed) and the fiscal record may change');
END;

-- A submission may now carry a change of payment method ('fiscal_payment_change'). SQLite
-- cannot widen a CHECK in place: both tables are rebuilt (the exchange log's key refers to
-- the submissions), every row copied as it is, then their indexes and the log's
-- append-only triggers made again. The old tables' triggers go with them.
ALTER TABLE compliance_exchanges RENAME TO compliance_exchanges_before_v28;
ALTER TABLE compliance_submissions RENAME TO compliance_submissions_before_v28;

CREATE TABLE compliance_submissions (
    id                  TEXT    PRIMARY KEY,     -- sub_…
    kind                TEXT    NOT NULL CHECK (kind IN ('guest_registration', 'fiscal_receipt',
                                                         'fiscal_payment_change')),
    scheme              TEXT    NOT NULL,
    subject_id          TEXT    NOT NULL,
    status              TEXT    NOT NULL CHECK (status IN ('queued', 'sending', 'accepted', 'rejected',
                                                           'retrying', 'unknown', 'manual_required')),
    attempts            INTEGER NOT NULL DEFAULT 0,
    due_at              TEXT    NOT NULL,
    authority_reference TEXT,
    last_error          TEXT,
    created_at          TEXT    NOT NULL,
    updated_at          TEXT    NOT NULL,
    payload             TEXT    NOT NULL DEFAULT '',
    payload_sha256      TEXT    NOT NULL DEFAULT '',
    rows                TEXT    NOT NULL DEFAULT '[]',
    record_date         TEXT,
    next_attempt_at     TEXT
) STRICT;
INSERT INTO compliance_submissions (id, kind, scheme, subject_id, status, attempts, due_at,
        authority_reference, last_error, created_at, updated_at, payload, payload_sha256, rows,
        record_date, next_attempt_at)
    SELECT id, kind, scheme, subject_id, status, attempts, due_at, authority_reference,
           last_error, created_at, updated_at, payload, payload_sha256, rows, record_date,
           next_attempt_at
    FROM compliance_submissions_before_v28;

CREATE TABLE compliance_exchanges (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    submission_id TEXT    NOT NULL REFERENCES compliance_submissions (id),
    attempt       INTEGER NOT NULL,
    operation     TEXT    NOT NULL,          -- GenerateToken, Send, Test, or a note
    request       TEXT,                      -- secrets redacted
    response      TEXT,
    http_status   INTEGER,
    error         TEXT,
    started_at    TEXT    NOT NULL,
    duration_ms   INTEGER NOT NULL DEFAULT 0
) STRICT;
INSERT INTO compliance_exchanges (seq, submission_id, attempt, operation, request, response,
        http_status, error, started_at, duration_ms)
    SELECT seq, submission_id, attempt, operation, request, response, http_status, error,
           started_at, duration_ms
    FROM compliance_exchanges_before_v28;

DROP TABLE compliance_exchanges_before_v28;
DROP TABLE compliance_submissions_before_v28;

CREATE INDEX compliance_submissions_by_subject ON compliance_submissions (subject_id);
CREATE INDEX compliance_submissions_by_status ON compliance_submissions (status, due_at);
CREATE INDEX compliance_submissions_order ON compliance_submissions (created_at, id);
CREATE INDEX compliance_submissions_by_record_date ON compliance_submissions (kind, record_date);
CREATE INDEX compliance_exchanges_by_submission ON compliance_exchanges (submission_id, seq);

CREATE TRIGGER compliance_exchanges_append_only BEFORE UPDATE ON compliance_exchanges
BEGIN
    SELECT RAISE(ABORT, 'the exchange log is append-only');
END;

CREATE TRIGGER compliance_exchanges_never_deleted BEFORE DELETE ON compliance_exchanges
BEGIN
    SELECT RAISE(ABORT, 'the exchange log is append-only');
END;
