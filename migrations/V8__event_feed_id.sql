-- The event feed's identity (API.md section 8). `feed_id` names one unbroken run of
-- sequence numbers; innkeep replaces it at start-up whenever the sequence could have gone
-- backwards (the database was restored or swapped), so clients holding an old position
-- learn to resynchronise instead of silently skipping or repeating events.
CREATE TABLE event_feed (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    feed_id  TEXT    NOT NULL
) STRICT;

INSERT INTO event_feed (id, feed_id) VALUES (1, 'feed_' || lower(hex(randomblob(16))));
