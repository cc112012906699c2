-- Recommendations (issue 18): the games a person said they are not interested in,
-- never recommended to them again until they take it back.
-- (0010: 0009 may be taken by a branch made at the same time.)
CREATE TABLE recommendation_dismissals (
    user_id    BIGINT NOT NULL REFERENCES users(id),
    game_id    BIGINT NOT NULL REFERENCES catalog_games(id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
