-- The durable job queue, webhook endpoints, and the delivery log.

-- Generic jobs (webhook deliveries now; compliance submissions next). A worker claims a job
-- by setting a lease; a lease that runs out (the worker or the process died) is reclaimed.
CREATE TABLE jobs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT    NOT NULL,
    subject_id  TEXT    NOT NULL,             -- what it is about (a webhook id, a submission id)
    payload     TEXT    NOT NULL,             -- JSON, kind-specific
    status      TEXT    NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    run_at      TEXT    NOT NULL,             -- next attempt
    lease_until TEXT,
    last_error  TEXT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
) STRICT;
CREATE INDEX jobs_due ON jobs (status, run_at, id);
CREATE INDEX jobs_by_subject ON jobs (subject_id, status);

-- How far the dispatcher has fanned the event feed out to webhooks. It advances in the same
-- transaction that writes the delivery jobs: nothing is lost or sent twice by a crash.
CREATE TABLE dispatch_cursor (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    sequence INTEGER NOT NULL
) STRICT;
INSERT INTO dispatch_cursor (id, sequence) VALUES (1, COALESCE((SELECT MAX(sequence) FROM events), 0));

CREATE TABLE webhooks (
    id                 TEXT    PRIMARY KEY,   -- whk_…
    url                TEXT    NOT NULL,
    events             TEXT    NOT NULL,      -- JSON array of types, `family.*` or `*`
    description        TEXT,
    enabled            INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    secret             TEXT    NOT NULL,      -- whsec_…
    previous_secret    TEXT,                  -- still signing until previous_until
    previous_until     TEXT,
    disabled_reason    TEXT,
    failing_since      TEXT,                  -- first failure of the current streak
    version            INTEGER NOT NULL,
    created_at         TEXT    NOT NULL,
    updated_at         TEXT    NOT NULL
) STRICT;
CREATE INDEX webhooks_order ON webhooks (created_at, id);

-- One row per delivery attempt.
CREATE TABLE webhook_deliveries (
    id              TEXT    PRIMARY KEY,      -- dlv_…
    webhook_id      TEXT    NOT NULL,
    event_id        TEXT    NOT NULL,
    event_type      TEXT    NOT NULL,
    job_id          INTEGER NOT NULL,
    attempt         INTEGER NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('succeeded', 'retrying', 'failed')),
    response_status INTEGER,
    duration_ms     INTEGER,
    error           TEXT,
    next_attempt_at TEXT,
    created_at      TEXT    NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at, id);
CREATE INDEX webhook_deliveries_by_status ON webhook_deliveries (status);
