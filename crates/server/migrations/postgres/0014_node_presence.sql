-- A node's presence (issue 19, failover): a named node holds a session-level advisory
-- lock with this key on a connection of its own for as long as it runs. When its
-- process dies, PostgreSQL ends the session and frees the lock at once, so the other
-- nodes see it gone without waiting out its leases (a paused node keeps its session
-- and its lock: its leases expire as before). NULL for a node that holds no such lock
-- (a build from before this column): its leases expire as before.
ALTER TABLE nodes ADD COLUMN presence_key BIGINT;
