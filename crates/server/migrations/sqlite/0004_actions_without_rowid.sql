-- Actions are only ever written and read by their key (table_id, version): stored in
-- that key's order, as one B-tree, rather than as a rowid table plus an index of the
-- key (two B-trees to update for every action committed).
CREATE TABLE actions_by_key (
    table_id   INTEGER NOT NULL REFERENCES game_tables(id),
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
INSERT INTO actions_by_key (table_id, version, seat, action, created_at)
    SELECT table_id, version, seat, action, created_at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_by_key RENAME TO actions;
