-- The invoice by e-mail (issue 35): a message may be about an invoice, and carries its
-- files (the PDF, the e-invoice XML). An invoice's message is stored with the check-out
-- that issues it and written out when its fiscal record has settled (until then its
-- bodies are empty).
ALTER TABLE messages ADD COLUMN invoice_id TEXT REFERENCES invoices (id);
CREATE INDEX messages_by_invoice ON messages (invoice_id) WHERE invoice_id IS NOT NULL;
CREATE TABLE message_attachments (
    message_id   TEXT NOT NULL REFERENCES messages (id),
    position     INTEGER NOT NULL,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    body         BLOB NOT NULL,
    PRIMARY KEY (message_id, position)
) STRICT;
-- Online pre-check-in done: when, and the arrival time the guest gave (HH:MM), shown on
-- Today and served as the reservation's `pre_check_in`.
CREATE TABLE pre_check_ins (
    reservation_id TEXT PRIMARY KEY REFERENCES reservations (id),
    completed_at   TEXT NOT NULL,
    arrival_time   TEXT
) STRICT;
-- Italy: the property's CIN, carried by every booking confirmation.
ALTER TABLE settings ADD COLUMN cin TEXT;
-- The hotel's own wording of guests' messages (subject, opening, closing), per kind and
-- language; without a row the catalogues' sentence is used.
CREATE TABLE mail_wording (
    kind       TEXT NOT NULL,
    language   TEXT NOT NULL,
    part       TEXT NOT NULL CHECK (part IN ('subject', 'intro', 'closing')),
    text       TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (kind, language, part)
) STRICT;
-- The payments report reads a range of days.
CREATE INDEX payments_by_time ON payments (paid_at);
-- The bookings report reads the bookings made in a range of days.
CREATE INDEX reservations_created ON reservations (created_at);
