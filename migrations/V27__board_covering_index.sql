-- The room board lays out every stay overlapping its window before it reads a single row:
-- its index now carries what the layout needs (the room type and the room; the row id is in
-- every index), so the stays the board does not draw (those that left and were re-let, a
-- type's bookings past its last row) cost an index entry each and never a row or a guest.
DROP INDEX reservations_board;
CREATE INDEX reservations_board
    ON reservations (arrival, departure, status, room_type_id, room_id);
