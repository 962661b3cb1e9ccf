-- Guests hear from the hotel (issue 35): the language each guest is written to in, and the
-- outbox. A message is rendered and stored in the same transaction as the change that
-- causes it (a booking, a cancellation), with a Message-ID derived from that change, and a
-- `mail` job sends it; its status follows what the relay said.
ALTER TABLE guests ADD COLUMN language TEXT;
CREATE TABLE messages (
    id             TEXT PRIMARY KEY,     -- msg_…
    kind           TEXT NOT NULL,        -- confirmation, cancellation
    reservation_id TEXT REFERENCES reservations (id),
    guest_id       TEXT,
    recipient      TEXT NOT NULL,
    language       TEXT NOT NULL,
    subject        TEXT NOT NULL,
    body_text      TEXT NOT NULL,
    body_html      TEXT NOT NULL,
    message_id     TEXT NOT NULL UNIQUE, -- <res_….v1.confirmation@hotel.example>
    status         TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'deferred', 'bounced', 'failed')),
    attempts       INTEGER NOT NULL DEFAULT 0,
    last_error     TEXT,
    relay_answer   TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    sent_at        TEXT
) STRICT;
CREATE INDEX messages_by_reservation ON messages (reservation_id, created_at);
-- Keys that sign the links innkeep sends guests (the pre-check-in link), made on first use.
CREATE TABLE link_keys (
    name TEXT PRIMARY KEY,
    key  BLOB NOT NULL
) STRICT;
