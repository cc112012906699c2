-- The shelf (issue 17): the catalog of board games, each person's collection and plays.

-- Who may approve catalog changes: the first registered account of a fresh database
-- (see `shelf::admin`), and whoever `takuge admin grant NAME` names.
ALTER TABLE users ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;

-- Every game of the catalog. `status`: approved (listed), pending (added by someone
-- who is not an admin, or by an import: on its adder's shelf, not yet listed),
-- rejected. Lists (designers, ...) are JSON arrays of strings.
CREATE TABLE catalog_games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The takuge game id of the five playable games; NULL for the others.
    slug         TEXT UNIQUE,
    name_ja      TEXT NOT NULL,
    name_en      TEXT NOT NULL,
    -- The reading of the Japanese name in kana, when it is not kana already.
    reading_ja   TEXT NOT NULL DEFAULT '',
    -- Sort keys (`shelf::kana`): the reading folded to hiragana, and the English name
    -- folded to lower case. Compared byte by byte (BINARY here, "C" on PostgreSQL).
    sort_ja      TEXT NOT NULL,
    sort_en      TEXT NOT NULL,
    min_players  INTEGER,
    max_players  INTEGER,
    -- The best player counts as ",3,4," (so "best with N" is one LIKE).
    best_players TEXT NOT NULL DEFAULT '',
    min_minutes  INTEGER,
    max_minutes  INTEGER,
    min_age      INTEGER,
    year         INTEGER,
    designers    TEXT NOT NULL DEFAULT '[]',
    publishers   TEXT NOT NULL DEFAULT '[]',
    mechanics    TEXT NOT NULL DEFAULT '[]',
    categories   TEXT NOT NULL DEFAULT '[]',
    bgg_id       INTEGER UNIQUE,
    playable     INTEGER NOT NULL DEFAULT 0,
    status       TEXT NOT NULL,
    added_by     INTEGER REFERENCES users(id),
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX catalog_games_status ON catalog_games(status, sort_en);

-- Every change to the catalog, kept with who made it: the seed, additions, imports,
-- proposed corrections and the admin's decision on each.
-- kind: seed | add | import | correct. status: pending | approved | rejected.
CREATE TABLE catalog_changes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES catalog_games(id),
    kind       TEXT NOT NULL,
    -- The fields proposed, as JSON (an addition: all of them).
    fields     TEXT NOT NULL,
    author     INTEGER REFERENCES users(id),
    status     TEXT NOT NULL,
    decided_by INTEGER REFERENCES users(id),
    decided_at INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX catalog_changes_game ON catalog_changes(game_id, id);
CREATE INDEX catalog_changes_status ON catalog_changes(status, id);

-- One person's entry for one game. rating: tenths (10..100 = 1.0..10.0), NULL unrated.
CREATE TABLE collections (
    user_id           INTEGER NOT NULL REFERENCES users(id),
    game_id           INTEGER NOT NULL REFERENCES catalog_games(id),
    own               INTEGER NOT NULL DEFAULT 0,
    prev_owned        INTEGER NOT NULL DEFAULT 0,
    want_to_play      INTEGER NOT NULL DEFAULT 0,
    wishlist          INTEGER NOT NULL DEFAULT 0,
    wishlist_priority INTEGER,
    played            INTEGER NOT NULL DEFAULT 0,
    favourite         INTEGER NOT NULL DEFAULT 0,
    rating            INTEGER,
    comment           TEXT NOT NULL DEFAULT '',
    updated_at        INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX collections_game ON collections(game_id);

-- Who may see a person's collection and plays: public | signed_in | private. No row:
-- public.
CREATE TABLE shelves (
    user_id    INTEGER PRIMARY KEY REFERENCES users(id),
    visibility TEXT NOT NULL
);

-- Plays, each in one person's history (`user_id`). A takuge match gives one play to
-- each registered seat (`table_id` set, unique per person); manual plays have none.
CREATE TABLE plays (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    game_id    INTEGER NOT NULL REFERENCES catalog_games(id),
    played_on  TEXT NOT NULL,
    minutes    INTEGER,
    comment    TEXT NOT NULL DEFAULT '',
    table_id   INTEGER REFERENCES game_tables(id),
    created_at INTEGER NOT NULL
);
CREATE INDEX plays_user ON plays(user_id, played_on);
CREATE INDEX plays_game ON plays(game_id, played_on);
CREATE UNIQUE INDEX plays_table_user ON plays(table_id, user_id);

-- A play's players in seat order: an account (user_id) or only a name.
CREATE TABLE play_players (
    play_id  INTEGER NOT NULL REFERENCES plays(id),
    position INTEGER NOT NULL,
    user_id  INTEGER REFERENCES users(id),
    name     TEXT NOT NULL,
    score    INTEGER,
    rank     INTEGER,
    winner   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (play_id, position)
);
CREATE INDEX play_players_user ON play_players(user_id);
