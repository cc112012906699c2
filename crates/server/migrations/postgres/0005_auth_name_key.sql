-- Login names are unique by their key (NFKC, lower case, the UTS #39 confusable
-- skeleton: `ADMIN`, `ａｄｍｉｎ` and Cyrillic `аdmin` share `admin`'s), not by their
-- spelling. SQL cannot compute the key: the server fills it in for existing accounts
-- when it starts (`policy::backfill_name_keys`). NULL for guests.
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX users_name_key ON users(name_key);
