-- The clocks of a table in play (JSON: each seat's reserve left and when it started
-- thinking), committed with each action so a restart keeps every deadline.
ALTER TABLE game_tables ADD COLUMN clock_state TEXT;
