-- Croatian e-invoices (eRačun, issue 31).
--
-- Each invoice line keeps what kind of line it is (the nights, a folio charge, the city tax)
-- and the KPD 2025 code its e-invoice classified it with, fixed at issue like the rest of it.
ALTER TABLE invoice_lines ADD COLUMN kind TEXT NOT NULL DEFAULT 'charge'
    CHECK (kind IN ('accommodation', 'charge', 'city_tax'));
ALTER TABLE invoice_lines ADD COLUMN kpd_code TEXT;

-- A room type and a folio charge may name their own KPD code (else the property's default).
ALTER TABLE room_types ADD COLUMN kpd_code TEXT;
ALTER TABLE folio_charges ADD COLUMN kpd_code TEXT;

-- An invoice's e-invoice: the document as built at issue with its SHA-256 (never changed),
-- and where it stands with the intermediary (its id there, its status, the last problem).
CREATE TABLE einvoices (
    invoice_id   TEXT    PRIMARY KEY REFERENCES invoices (id),
    scheme       TEXT    NOT NULL,
    intermediary TEXT    NOT NULL,
    document     TEXT    NOT NULL,
    sha256       TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('queued', 'sent', 'delivered', 'fiscalized',
                                                    'rejected')),
    reference    TEXT,
    last_error   TEXT,
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL
) STRICT;
CREATE INDEX einvoices_by_status ON einvoices (status);

CREATE TRIGGER einvoices_document_fixed BEFORE UPDATE OF document, sha256, invoice_id ON einvoices
BEGIN
    SELECT RAISE(ABORT, 'an issued e-invoice never changes');
END;

CREATE TRIGGER einvoices_never_deleted BEFORE DELETE ON einvoices
BEGIN
    SELECT RAISE(ABORT, 'an issued e-invoice is never deleted');
END;

-- A submission may now carry an e-invoice to its intermediary ('einvoice') or a month's
-- payments of e-invoices ('einvoice_payments'). SQLite cannot widen a CHECK in place: both
-- tables are rebuilt as in V32, every row copied as it is, then their indexes and the log's
-- append-only triggers made again.
ALTER TABLE compliance_exchanges RENAME TO compliance_exchanges_before_v33;
ALTER TABLE compliance_submissions RENAME TO compliance_submissions_before_v33;

CREATE TABLE compliance_submissions (
    id                  TEXT    PRIMARY KEY,     -- sub_…
    kind                TEXT    NOT NULL CHECK (kind IN ('guest_registration', 'fiscal_receipt',
                                                         'fiscal_payment_change', 'guest_departure',
                                                         'guest_withdrawal', 'einvoice',
                                                         'einvoice_payments')),
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
    FROM compliance_submissions_before_v33;

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
    FROM compliance_exchanges_before_v33;

DROP TABLE compliance_exchanges_before_v33;
DROP TABLE compliance_submissions_before_v33;

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
