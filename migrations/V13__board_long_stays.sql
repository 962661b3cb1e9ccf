-- The room board reads the stays that overlap a window of days. Short stays are found by
-- their arrival (reservations_arrival, a bounded range); stays longer than 28 nights, few in
-- any hotel, by this small index, so the board never scans the whole history.
CREATE INDEX reservations_long_stays ON reservations (departure)
    WHERE julianday(departure) - julianday(arrival) > 28;
