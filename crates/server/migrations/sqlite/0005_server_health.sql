-- /readyz writes this one row (at most once a second) to learn that writes commit.
CREATE TABLE server_health (
    id         BIGINT PRIMARY KEY,
    checked_at BIGINT NOT NULL
);
