-- The day close (issue 36): one row per closed day, its certificate as written (JSON) and
-- its hash, which covers the previous day's hash named inside the certificate: a chain an
-- owner or an inspector can verify. Closed days are locked: nothing dated in them changes.
CREATE TABLE day_closes (
    id        TEXT PRIMARY KEY,             -- day_…
    date      TEXT NOT NULL UNIQUE,
    body      TEXT NOT NULL,
    hash      TEXT NOT NULL UNIQUE,
    closed_at TEXT NOT NULL
) STRICT;
-- The close checks the stays checked out on its day.
CREATE INDEX reservations_checked_out ON reservations (checked_out_at)
    WHERE checked_out_at IS NOT NULL;
-- Italy's cash register closures innkeep asked for (by the day close, or on demand from
-- the compliance centre): the business day whose takings each closed, and what the
-- register said. The compliance calendar proves each day's closure from these.
CREATE TABLE register_closures (
    day       TEXT NOT NULL,
    closed_at TEXT NOT NULL,
    message   TEXT NOT NULL,
    PRIMARY KEY (day, closed_at)
) STRICT, WITHOUT ROWID;
-- Alloggiati Web's receipts (ricevute): the Polizia di Stato's signed PDF of each day's
-- registrations, fetched the day after (the service keeps them 30 days; the hotel must keep
-- them five years).
CREATE TABLE registration_receipts (
    day        TEXT PRIMARY KEY,
    scheme     TEXT NOT NULL,
    body       BLOB NOT NULL,
    sha256     TEXT NOT NULL,
    fetched_at TEXT NOT NULL
) STRICT;
