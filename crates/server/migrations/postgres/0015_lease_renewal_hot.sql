-- The heartbeat renews every lease a node holds every few seconds, changing only
-- `expires_at`. An index on that column made each renewal a full row update (new
-- index entries in every index, dead tuples to vacuum): 85-100 ms for 3,000 leases.
-- No statement could use the index (each compares `expires_at` with
-- `clock_timestamp()`, which is volatile, so never an index condition), so it goes;
-- with room left on each page, a renewal is a heap-only (HOT) update: 17-20 ms for
-- 3,000 leases, 94 % HOT (docs/PERFORMANCE.md, "Several nodes under load").
DROP INDEX IF EXISTS table_leases_expires;
ALTER TABLE table_leases SET (fillfactor = 70);
