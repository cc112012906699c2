-- Reviews (レビュー) and rule notes (ルール解説) of catalog games, their Nice! (ナイス!),
-- reports to the admin, and every change to them with who made it.

-- kind: review | rules. status: shown | hidden (by an admin) | deleted (by its author).
-- `likes` is the count of `review_likes` rows, kept in the same transaction, so the
-- "most liked" order is one index.
CREATE TABLE reviews (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES catalog_games(id),
    user_id    INTEGER NOT NULL REFERENCES users(id),
    kind       TEXT NOT NULL,
    title      TEXT NOT NULL DEFAULT '',
    body       TEXT NOT NULL,
    likes      INTEGER NOT NULL DEFAULT 0,
    status     TEXT NOT NULL DEFAULT 'shown',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX reviews_newest ON reviews(game_id, status, id);
CREATE INDEX reviews_liked ON reviews(game_id, status, likes, id);
CREATE INDEX reviews_user ON reviews(user_id, id);

-- One Nice! per person per review.
CREATE TABLE review_likes (
    review_id  INTEGER NOT NULL REFERENCES reviews(id),
    user_id    INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (review_id, user_id)
);

-- A report for the admin, one per person per review. status: open | hidden (the
-- admin hid the review) | kept (the admin kept it shown).
CREATE TABLE review_reports (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    review_id  INTEGER NOT NULL REFERENCES reviews(id),
    reporter   INTEGER NOT NULL REFERENCES users(id),
    reason     TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'open',
    decided_by INTEGER REFERENCES users(id),
    decided_at INTEGER,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX review_reports_once ON review_reports(review_id, reporter);
CREATE INDEX review_reports_status ON review_reports(status, review_id);

-- Every change of a review, like `catalog_changes`: kind create | edit | delete | hide
-- | restore, who made it, and the title and text it left (a deletion keeps the last).
CREATE TABLE review_changes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    review_id  INTEGER NOT NULL REFERENCES reviews(id),
    kind       TEXT NOT NULL,
    author     INTEGER NOT NULL REFERENCES users(id),
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX review_changes_review ON review_changes(review_id, id);
