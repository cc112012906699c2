-- The id a client gave an action (docs/PROTOCOL.md, "Action ids"), so that a retry of
-- an action already committed is answered with its original version instead of being
-- played twice, also after a restart. NULL: the client gave none.
ALTER TABLE actions ADD COLUMN client_id TEXT;
