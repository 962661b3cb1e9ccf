-- National guest registration: what each submission sends, the authority's answer per row,
-- an append-only log of raw exchanges, and the imported code tables.

-- The payload is built and hashed in the check-in transaction ("persist before send").
-- `rows` is a JSON array, one element per payload line in order:
-- {"guest_id", "line", "status" (pending|accepted|rejected), "error"}.
ALTER TABLE compliance_submissions ADD COLUMN payload TEXT NOT NULL DEFAULT '';
ALTER TABLE compliance_submissions ADD COLUMN payload_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE compliance_submissions ADD COLUMN rows TEXT NOT NULL DEFAULT '[]';
-- The record date (property-local) the payload is for: the export is by this day.
ALTER TABLE compliance_submissions ADD COLUMN record_date TEXT;
ALTER TABLE compliance_submissions ADD COLUMN next_attempt_at TEXT;
CREATE INDEX compliance_submissions_order ON compliance_submissions (created_at, id);
CREATE INDEX compliance_submissions_by_record_date ON compliance_submissions (kind, record_date);

-- Every raw request and response, never updated or deleted.
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
CREATE INDEX compliance_exchanges_by_submission ON compliance_exchanges (submission_id, seq);

CREATE TRIGGER compliance_exchanges_append_only BEFORE UPDATE ON compliance_exchanges
BEGIN
    SELECT RAISE(ABORT, 'the exchange log is append-only');
END;

CREATE TRIGGER compliance_exchanges_never_deleted BEFORE DELETE ON compliance_exchanges
BEGIN
    SELECT RAISE(ABORT, 'the exchange log is append-only');
END;

-- Code tables imported from the authorities' own files (places, states, document types).
-- `name_key` is the description transliterated to A-Z, space and apostrophe, for lookups.
CREATE TABLE compliance_codes (
    scheme      TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    code        TEXT NOT NULL,
    description TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    province    TEXT NOT NULL DEFAULT '',
    valid_to    TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (scheme, table_name, code)
) STRICT, WITHOUT ROWID;
CREATE INDEX compliance_codes_by_name ON compliance_codes (scheme, table_name, name_key, province);

-- Which version of each table is loaded.
CREATE TABLE compliance_code_tables (
    scheme      TEXT    NOT NULL,
    table_name  TEXT    NOT NULL,
    rows        INTEGER NOT NULL,
    sha256      TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    imported_at TEXT    NOT NULL,
    PRIMARY KEY (scheme, table_name)
) STRICT;
