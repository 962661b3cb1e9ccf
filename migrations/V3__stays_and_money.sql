-- Stays and money: folio charges, invoices with their lines, gapless numbering per series,
-- payments, and the compliance submissions that check-in and invoicing queue.
-- Issued invoices, their lines and payments are immutable; triggers enforce it, so even a
-- raw UPDATE or DELETE in the sqlite3 shell fails.

CREATE TABLE folio_charges (
    id             TEXT    PRIMARY KEY,          -- chg_…
    reservation_id TEXT    NOT NULL REFERENCES reservations (id),
    description    TEXT    NOT NULL,
    quantity       INTEGER NOT NULL CHECK (quantity >= 1),
    unit_price     INTEGER NOT NULL,             -- gross minor units; negative for an allowance
    tax_rate       INTEGER NOT NULL CHECK (tax_rate BETWEEN 0 AND 10000),
    service_date   TEXT    NOT NULL,
    invoice_id     TEXT,                         -- set once, when invoiced
    created_at     TEXT    NOT NULL
) STRICT;
CREATE INDEX folio_charges_by_reservation ON folio_charges (reservation_id, created_at, id);

-- The last number used in each series; incremented inside the issuing transaction.
CREATE TABLE invoice_series (
    series   TEXT    PRIMARY KEY,
    last_seq INTEGER NOT NULL
) STRICT;

CREATE TABLE invoices (
    id                  TEXT    PRIMARY KEY,     -- inv_…
    series              TEXT    NOT NULL,
    seq                 INTEGER NOT NULL,
    number              TEXT    NOT NULL UNIQUE,
    kind                TEXT    NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
    status              TEXT    NOT NULL CHECK (status IN ('issued', 'paid', 'cancelled')),
    reservation_id      TEXT    REFERENCES reservations (id),
    guest_id            TEXT    REFERENCES guests (id),
    bill_to             TEXT    NOT NULL,        -- JSON {name, address, tax_id}
    issue_date          TEXT    NOT NULL,
    currency            TEXT    NOT NULL,
    payment_method      TEXT,
    net                 INTEGER NOT NULL,
    tax                 INTEGER NOT NULL,
    gross               INTEGER NOT NULL,
    paid_amount         INTEGER NOT NULL DEFAULT 0,
    corrects_invoice_id TEXT    REFERENCES invoices (id),
    reason              TEXT,
    fiscal              TEXT    NOT NULL,        -- JSON {scheme, status, local_proof, ...}
    version             INTEGER NOT NULL,
    created_at          TEXT    NOT NULL,
    updated_at          TEXT    NOT NULL,
    -- List order: issue date, then number (both immutable, so cursors never move).
    sort_key            TEXT    GENERATED ALWAYS AS (issue_date || ' ' || number) VIRTUAL,
    UNIQUE (series, seq),
    CHECK (net + tax = gross)
) STRICT;
CREATE INDEX invoices_order ON invoices (sort_key, id);
CREATE INDEX invoices_by_guest ON invoices (guest_id, sort_key, id);
CREATE INDEX invoices_by_reservation ON invoices (reservation_id, sort_key, id);
CREATE INDEX invoices_by_status ON invoices (status, sort_key, id);

CREATE TABLE invoice_lines (
    invoice_id   TEXT    NOT NULL REFERENCES invoices (id),
    position     INTEGER NOT NULL,
    description  TEXT    NOT NULL,
    quantity     INTEGER NOT NULL,
    unit_price   INTEGER NOT NULL,
    tax_rate     INTEGER NOT NULL,
    net_amount   INTEGER NOT NULL,
    tax_amount   INTEGER NOT NULL,
    gross_amount INTEGER NOT NULL,
    service_date TEXT,
    charge_id    TEXT    UNIQUE REFERENCES folio_charges (id),  -- a charge is invoiced once
    PRIMARY KEY (invoice_id, position),
    CHECK (net_amount + tax_amount = gross_amount)
) STRICT, WITHOUT ROWID;

CREATE TABLE payments (
    id         TEXT    PRIMARY KEY,              -- pay_…
    invoice_id TEXT    NOT NULL REFERENCES invoices (id),
    amount     INTEGER NOT NULL CHECK (amount > 0),
    method     TEXT    NOT NULL,
    reference  TEXT,
    paid_at    TEXT    NOT NULL,
    created_at TEXT    NOT NULL
) STRICT;
CREATE INDEX payments_by_invoice ON payments (invoice_id, created_at);

-- Guest registrations and fiscal receipts owed to national authorities.
CREATE TABLE compliance_submissions (
    id                  TEXT    PRIMARY KEY,     -- sub_…
    kind                TEXT    NOT NULL CHECK (kind IN ('guest_registration', 'fiscal_receipt')),
    scheme              TEXT    NOT NULL,
    subject_id          TEXT    NOT NULL,
    status              TEXT    NOT NULL CHECK (status IN ('queued', 'sending', 'accepted', 'rejected',
                                                           'retrying', 'unknown', 'manual_required')),
    attempts            INTEGER NOT NULL DEFAULT 0,
    due_at              TEXT    NOT NULL,
    authority_reference TEXT,
    last_error          TEXT,
    created_at          TEXT    NOT NULL,
    updated_at          TEXT    NOT NULL
) STRICT;
CREATE INDEX compliance_submissions_by_subject ON compliance_submissions (subject_id);
CREATE INDEX compliance_submissions_by_status ON compliance_submissions (status, due_at);

-- Immutability. An issued invoice may only change status (issued -> paid, issued/paid ->
-- cancelled), its paid amount, its fiscal record, version and updated_at.
CREATE TRIGGER invoices_immutable BEFORE UPDATE ON invoices
WHEN OLD.id IS NOT NEW.id OR OLD.series IS NOT NEW.series OR OLD.seq IS NOT NEW.seq
  OR OLD.number IS NOT NEW.number OR OLD.kind IS NOT NEW.kind
  OR OLD.reservation_id IS NOT NEW.reservation_id OR OLD.guest_id IS NOT NEW.guest_id
  OR OLD.bill_to IS NOT NEW.bill_to OR OLD.issue_date IS NOT NEW.issue_date
  OR OLD.currency IS NOT NEW.currency OR OLD.payment_method IS NOT NEW.payment_method
  OR OLD.net IS NOT NEW.net OR OLD.tax IS NOT NEW.tax OR OLD.gross IS NOT NEW.gross
  OR OLD.corrects_invoice_id IS NOT NEW.corrects_invoice_id OR OLD.reason IS NOT NEW.reason
  OR OLD.created_at IS NOT NEW.created_at
  OR (OLD.status IS NOT NEW.status AND NOT (
        (OLD.status = 'issued' AND NEW.status IN ('paid', 'cancelled'))
     OR (OLD.status = 'paid' AND NEW.status = 'cancelled')))
  OR NEW.paid_amount < OLD.paid_amount
BEGIN
    SELECT RAISE(ABORT, 'issued invoices are immutable: only status, payments and the fiscal record may change');
END;

CREATE TRIGGER invoices_never_deleted BEFORE DELETE ON invoices
BEGIN
    SELECT RAISE(ABORT, 'issued invoices are never deleted; issue a credit note');
END;

CREATE TRIGGER invoice_lines_immutable BEFORE UPDATE ON invoice_lines
BEGIN
    SELECT RAISE(ABORT, 'invoice lines are immutable');
END;

CREATE TRIGGER invoice_lines_never_deleted BEFORE DELETE ON invoice_lines
BEGIN
    SELECT RAISE(ABORT, 'invoice lines are never deleted');
END;

CREATE TRIGGER payments_immutable BEFORE UPDATE ON payments
BEGIN
    SELECT RAISE(ABORT, 'payments are immutable');
END;

CREATE TRIGGER payments_never_deleted BEFORE DELETE ON payments
BEGIN
    SELECT RAISE(ABORT, 'payments are never deleted');
END;

-- A charge's invoice is set once.
CREATE TRIGGER folio_charges_invoiced_once BEFORE UPDATE ON folio_charges
WHEN OLD.invoice_id IS NOT NULL OR OLD.reservation_id IS NOT NEW.reservation_id
  OR OLD.quantity IS NOT NEW.quantity OR OLD.unit_price IS NOT NEW.unit_price
  OR OLD.tax_rate IS NOT NEW.tax_rate OR OLD.description IS NOT NEW.description
BEGIN
    SELECT RAISE(ABORT, 'folio charges only change by being invoiced, once');
END;
