-- Version numbers that tell a server whether its in-memory copy of a shelf is still
-- current (issue 17's 2,000-game page; several nodes may share one database, issue
-- 19): a shelf's number is raised in the same transaction as every write to that
-- person's collection, the catalog's with every change to a game's shown fields. A
-- copy is used only while both numbers are the ones read with it. No row: version 0.
CREATE TABLE shelf_versions (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    version INTEGER NOT NULL
);

CREATE TABLE catalog_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, 0);
