-- Deposits: what a reservation's rate plan asks (fixed at booking) and the advances paid
-- against it, as JSON ({"due", "due_by", "advances": [{"invoice_id", "number", "amount",
-- "tax_rate", "deducted", "refunded"}]}); null when neither.
ALTER TABLE reservations ADD COLUMN deposit TEXT;

-- A folio charge put there from the extras catalogue names its extra (the reservation's
-- `extras`).
ALTER TABLE folio_charges ADD COLUMN extra_id TEXT;
CREATE INDEX folio_charges_extras ON folio_charges (reservation_id) WHERE extra_id IS NOT NULL;

-- Invoice lines gain the kind `advance` (a deposit billed on its advance invoice, or deducted
-- on the stay's bill). SQLite cannot change a CHECK, so the table is rebuilt as it was, with
-- its rows, its keys and its two guards.
DROP TRIGGER invoice_lines_immutable;
DROP TRIGGER invoice_lines_never_deleted;

CREATE TABLE invoice_lines_v39 (
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
    kind         TEXT    NOT NULL DEFAULT 'charge'
        CHECK (kind IN ('accommodation', 'charge', 'city_tax', 'advance')),
    kpd_code     TEXT,
    PRIMARY KEY (invoice_id, position),
    CHECK (net_amount + tax_amount = gross_amount)
) STRICT, WITHOUT ROWID;

INSERT INTO invoice_lines_v39 (invoice_id, position, description, quantity, unit_price,
    tax_rate, net_amount, tax_amount, gross_amount, service_date, charge_id, kind, kpd_code)
SELECT invoice_id, position, description, quantity, unit_price, tax_rate, net_amount,
    tax_amount, gross_amount, service_date, charge_id, kind, kpd_code
FROM invoice_lines;

DROP TABLE invoice_lines;
ALTER TABLE invoice_lines_v39 RENAME TO invoice_lines;

CREATE TRIGGER invoice_lines_immutable BEFORE UPDATE ON invoice_lines
BEGIN
    SELECT RAISE(ABORT, 'invoice lines are immutable');
END;

CREATE TRIGGER invoice_lines_never_deleted BEFORE DELETE ON invoice_lines
BEGIN
    SELECT RAISE(ABORT, 'invoice lines are never deleted');
END;

-- Today's "deposits due": confirmed bookings with a deposit not paid in full, by due day.
CREATE INDEX reservations_deposit_due
    ON reservations (json_extract(deposit, '$.due_by'), arrival)
    WHERE status = 'confirmed' AND json_extract(deposit, '$.outstanding') > 0;
