-- A nightly rate set by hand says why ("long-stay discount"), kept with the reservation and,
-- through its events, in its history.
ALTER TABLE reservations ADD COLUMN rate_note TEXT;
