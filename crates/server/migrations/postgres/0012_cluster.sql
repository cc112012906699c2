-- Several nodes on one database (issue 19, docs/ARCHITECTURE.md "Several nodes").
-- Only named nodes (`takuge serve --node-name`) write these; a single node leaves
-- them empty and its actions' epoch NULL.

-- Every node that ever started, with the instance that runs under its name now and
-- when it last said it was alive (the database's clock, never a node's).
CREATE TABLE nodes (
    name         TEXT PRIMARY KEY,
    url          TEXT NOT NULL,
    instance     TEXT NOT NULL,
    started_at   TIMESTAMPTZ NOT NULL,
    heartbeat_at TIMESTAMPTZ NOT NULL,
    live_tables  INTEGER NOT NULL DEFAULT 0,
    stopping     BOOLEAN NOT NULL DEFAULT FALSE
);

-- Who owns each live table, under which epoch, until when. A claim bumps the epoch;
-- every write of a table's actor carries its epoch and is refused unless it is this
-- row's (fencing).
CREATE TABLE table_leases (
    table_id   BIGINT PRIMARY KEY REFERENCES game_tables(id),
    node       TEXT NOT NULL,
    epoch      BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX table_leases_node ON table_leases (node);
CREATE INDEX table_leases_expires ON table_leases (expires_at);

-- One row per claim, never updated: which node held which epoch of which table.
CREATE TABLE lease_claims (
    table_id   BIGINT NOT NULL,
    epoch      BIGINT NOT NULL,
    node       TEXT NOT NULL,
    claimed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (table_id, epoch)
);

-- The epoch each action was committed under (NULL on a single node).
ALTER TABLE actions ADD COLUMN epoch BIGINT;
