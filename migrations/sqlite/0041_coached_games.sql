-- A game against the bot may be coached (`/play` with `coach`): its member may ask for hints.
ALTER TABLE bot_games ADD COLUMN coached INTEGER NOT NULL DEFAULT 0;
