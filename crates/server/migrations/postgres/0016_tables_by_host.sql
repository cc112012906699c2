-- A table's creation counts its host's open tables (the per-host cap, `store/tables.rs`
-- `open_tables_of`). With no index on `host` the count read every open table: at
-- 10,000 tables created in a minute (the scale sweep, docs/PERFORMANCE.md "Scale")
-- each creation scanned thousands, and PostgreSQL's pool waited over 2 s.
CREATE INDEX game_tables_host ON game_tables(host, status);
