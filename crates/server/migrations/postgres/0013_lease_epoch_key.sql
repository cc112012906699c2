-- The epoch becomes a key column of table_leases (a unique index holding it), so
-- that a fenced write reads its lease row FOR KEY SHARE and still waits for a claim
-- or a handover (they change the epoch: a key update, which takes the row's strongest
-- lock), but no longer for the heartbeat's renewal (it changes expires_at alone).
-- With FOR SHARE, every renewal of a node's thousands of leases held each action batch
-- touching one of them until it committed, and the two deadlocked now and then (each
-- waited for a row the other had locked), so that a batch stood still for
-- deadlock_timeout (1 s by default) and then failed: the 1.3 s latency tail of issue
-- 20, item 4 (docs/PERFORMANCE.md, "The unpaced tail").
CREATE UNIQUE INDEX table_leases_epoch ON table_leases (table_id, epoch);
