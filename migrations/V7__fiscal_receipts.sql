-- Fiscal receipts (Croatia's CIS, scheme hr-cis): the record sealed when an invoice is
-- issued. The number, time, amounts and protective code (ZKI) never change; the JIR is
-- written once, when the tax administration gives it. Triggers enforce both, so even the
-- sqlite3 shell cannot alter a sealed receipt.

-- Receipt numbers: gapless per year, business premises and device (OznSlijed = P).
CREATE TABLE fiscal_counters (
    year        INTEGER NOT NULL,
    premises    TEXT    NOT NULL,
    device      TEXT    NOT NULL,
    last        INTEGER NOT NULL,
    PRIMARY KEY (year, premises, device)
) STRICT;

CREATE TABLE fiscal_receipts (
    invoice_id  TEXT    PRIMARY KEY,
    scheme      TEXT    NOT NULL,
    year        INTEGER NOT NULL,
    number      INTEGER NOT NULL,
    premises    TEXT    NOT NULL,
    device      TEXT    NOT NULL,
    issued_at   TEXT    NOT NULL,               -- local date and time of issue
    total       INTEGER NOT NULL,               -- cents, negative for a credit note
    zki         TEXT    NOT NULL,
    receipt     TEXT    NOT NULL,               -- JSON: the sealed receipt as sent
    jir         TEXT,
    created_at  TEXT    NOT NULL,
    UNIQUE (year, premises, device, number)
) STRICT;

CREATE TRIGGER fiscal_receipts_sealed BEFORE UPDATE ON fiscal_receipts
WHEN OLD.invoice_id IS NOT NEW.invoice_id OR OLD.scheme IS NOT NEW.scheme
  OR OLD.year IS NOT NEW.year OR OLD.number IS NOT NEW.number
  OR OLD.premises IS NOT NEW.premises OR OLD.device IS NOT NEW.device
  OR OLD.issued_at IS NOT NEW.issued_at OR OLD.total IS NOT NEW.total
  OR OLD.zki IS NOT NEW.zki OR OLD.receipt IS NOT NEW.receipt
  OR OLD.created_at IS NOT NEW.created_at
  OR (OLD.jir IS NOT NULL AND OLD.jir IS NOT NEW.jir)
BEGIN
    SELECT RAISE(ABORT, 'fiscal receipts are sealed: only the JIR may be written, once');
END;

CREATE TRIGGER fiscal_receipts_never_deleted BEFORE DELETE ON fiscal_receipts
BEGIN
    SELECT RAISE(ABORT, 'fiscal receipts are never deleted');
END;

-- The invoice's copy of the sealed fields (its fiscal record) is held to the same rule.
CREATE TRIGGER invoices_fiscal_sealed BEFORE UPDATE OF fiscal ON invoices
WHEN json_extract(OLD.fiscal, '$.local_proof') IS NOT NULL AND (
     json_extract(OLD.fiscal, '$.local_proof') IS NOT json_extract(NEW.fiscal, '$.local_proof')
  OR json_extract(OLD.fiscal, '$.scheme') IS NOT json_extract(NEW.fiscal, '$.scheme')
  OR json_extract(OLD.fiscal, '$.receipt_number') IS NOT json_extract(NEW.fiscal, '$.receipt_number')
  OR json_extract(OLD.fiscal, '$.deliver_by') IS NOT json_extract(NEW.fiscal, '$.deliver_by')
  OR (json_extract(OLD.fiscal, '$.authority_reference') IS NOT NULL
      AND json_extract(OLD.fiscal, '$.authority_reference') IS NOT json_extract(NEW.fiscal, '$.authority_reference')))
BEGIN
    SELECT RAISE(ABORT, 'the sealed fiscal fields of an invoice never change');
END;
