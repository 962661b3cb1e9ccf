-- The room board reads the stays overlapping a window through arrival, departure and status
-- at once, from the index alone: the stays that left before the window (most of those read
-- for the 28 days before it) are passed over without reading their rows.
CREATE INDEX reservations_board ON reservations (arrival, departure, status);
