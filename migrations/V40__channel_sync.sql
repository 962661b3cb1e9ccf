-- The channel manager's side of innkeep (issue 34): where its ARI pushes stand in the event
-- feed (every change that moves availability, prices or restrictions records an event in
-- its own transaction, so the feed is the durable queue of change sets), whether a full
-- sync was asked for, what the last push and the last problem were, and what the last
-- read-back found.
CREATE TABLE channel_sync (
    id                INTEGER PRIMARY KEY CHECK (id = 1),
    cursor            INTEGER,           -- the last event pushed; null: never synced
    full_requested_at TEXT,              -- a full sync asked for (CLI, desk), not yet done
    last_push_at      TEXT,
    last_error        TEXT,
    pushes            INTEGER NOT NULL DEFAULT 0,
    checked_at        TEXT,              -- the last read-back of the channel manager's ARI
    differences       INTEGER,           -- nights where it held other than innkeep
    first_differences TEXT               -- the first of them, in words
) STRICT;
INSERT INTO channel_sync (id) VALUES (1);
