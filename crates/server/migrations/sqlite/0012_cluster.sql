-- The epoch each action was committed under (several nodes, PostgreSQL only: the
-- column is here so that both databases keep one schema for `actions`; on SQLite it
-- stays NULL). The nodes' own tables (nodes, table_leases, lease_claims) are
-- PostgreSQL's alone.
ALTER TABLE actions ADD COLUMN epoch BIGINT;
