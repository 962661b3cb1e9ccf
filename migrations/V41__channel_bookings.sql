-- Bookings in from the channel manager (issue 34): each booking revision applied once,
-- keyed by its id, in the same transaction as the reservations it makes or changes; the
-- rooms of a channel booking and the reservation each became; a reservation's channel
-- (JSON: name, ota, ota_code, booking_id, revision_id, payment, overbooked); the pulls'
-- bookkeeping beside the pushes' (and how far ahead they reach); and the mapping chosen in Administration › Channels.
ALTER TABLE reservations ADD COLUMN channel TEXT;
CREATE TABLE channel_revisions (
    id           TEXT PRIMARY KEY,   -- the channel manager's revision id
    booking_id   TEXT NOT NULL,
    kind         TEXT NOT NULL,      -- new, modified, cancelled
    applied_at   TEXT NOT NULL,
    outcome      TEXT NOT NULL       -- what it did, in words
) STRICT;
CREATE TABLE channel_bookings (
    booking_id     TEXT NOT NULL,
    room           INTEGER NOT NULL, -- the room's position in the booking
    reservation_id TEXT NOT NULL REFERENCES reservations (id),
    PRIMARY KEY (booking_id, room)
) STRICT;
CREATE TABLE channel_mappings (
    kind         TEXT NOT NULL CHECK (kind IN ('room_type', 'rate_plan')),
    local_id     TEXT NOT NULL,      -- rt_… or rp_…
    remote_id    TEXT NOT NULL,
    remote_title TEXT NOT NULL,
    PRIMARY KEY (kind, local_id)
) STRICT;
ALTER TABLE channel_sync ADD COLUMN last_pull_at TEXT;
ALTER TABLE channel_sync ADD COLUMN pulled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE channel_sync ADD COLUMN pull_error TEXT;
-- The last night the channel manager was sent: each day the horizon moves on a night, and
-- the nights it reaches are sent with the next push.
ALTER TABLE channel_sync ADD COLUMN pushed_to TEXT;
