-- takuge server schema, version 1. Runtime-checked queries only (no compile-time macros).
CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    -- NULL for a guest that has not registered yet.
    name          TEXT UNIQUE,
    display_name  TEXT NOT NULL,
    password_hash TEXT,
    guest         INTEGER NOT NULL,
    created_at    INTEGER NOT NULL
);

-- Session cookies and bearer tokens; only a SHA-256 of the token is stored.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE game_tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    players     INTEGER NOT NULL,
    host        INTEGER NOT NULL REFERENCES users(id),
    private     INTEGER NOT NULL,
    invite_code TEXT,
    clock       TEXT NOT NULL,
    -- The seed of all chance, as the bits of the u64; never shown before the end.
    seed        INTEGER NOT NULL,
    -- open | playing | finished | abandoned
    status      TEXT NOT NULL,
    outcome     TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX game_tables_status ON game_tables(status, game, players);

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES game_tables(id),
    seat     INTEGER NOT NULL,
    user_id  INTEGER REFERENCES users(id),
    bot      TEXT,
    name     TEXT NOT NULL,
    -- 1 when a bot took over a player's seat (left, or out of time).
    replaced INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_user ON seats(user_id);

-- The action log. The primary key is the optimistic version check: two writers of
-- the same version cannot both commit.
CREATE TABLE actions (
    table_id   INTEGER NOT NULL REFERENCES game_tables(id),
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (table_id, version)
);
