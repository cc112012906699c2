-- Login names are unique by their key (NFKC, lower case, the UTS #39 confusable
-- skeleton: `ADMIN`, `ａｄｍｉｎ` and Cyrillic `аdmin` share `admin`'s), not by their
-- spelling. SQL cannot compute the key: the server fills it in for existing accounts
-- when it starts (`policy::backfill_name_keys`). NULL for guests.
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX users_by_name_key ON users(name_key);

-- When a session began, in milliseconds and strictly increasing within a process: an
-- account keeps its newest sessions, and seconds cannot tell a burst of logins apart.
-- 0 for sessions older than this column (they sort first, by `created_at`).
ALTER TABLE sessions ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0;
