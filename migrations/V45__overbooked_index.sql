-- Today lists the booking sites' bookings taken overbooked that still hold rooms; without
-- an index that read every reservation ever made (8.8 ms of CPU per Today page at a
-- million reservations, innkeep-bench). This partial index holds only those few.
CREATE INDEX reservations_overbooked ON reservations (arrival, id)
    WHERE channel IS NOT NULL AND json_extract(channel, '$.overbooked') = 1
      AND status IN ('confirmed', 'checked_in');
