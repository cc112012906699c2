-- The rules version (`Game::RULES_VERSION`) a table is played under, so that a table
-- or record from an older build is never replayed under newer rules by mistake.
-- Written when the table is created; an open table (nothing played yet) restored by a
-- build with other rules takes that build's version, since that build will play it.
-- NULL: stored before versions were kept, and not knowable. Up to this migration only
-- secret-moon ever had a version other than 1 (version 2 since its new setup draws),
-- so every other game's existing tables are version 1 — a fact, not a guess — and
-- secret-moon's stay NULL (version 1 or 2). See docs/PROTOCOL.md, "Rules versions".
ALTER TABLE game_tables ADD COLUMN rules_version BIGINT;
UPDATE game_tables SET rules_version = 1 WHERE game <> 'secret-moon';
-- Why the server (not the host) closed a table: 'rules_version' when it was in play
-- under rules this build does not play. NULL otherwise.
ALTER TABLE game_tables ADD COLUMN abandoned_reason TEXT;
