-- How each player hears that it is their turn (and is reminded): a mention in the game's
-- channel, a direct message with the board and its Move button, or both. Reminders keep their
-- own on/off switch in `reminders` ('off', or any other value for on).
ALTER TABLE player_settings ADD COLUMN notify TEXT NOT NULL DEFAULT 'channel'
    CHECK (notify IN ('channel', 'dm', 'both'));
UPDATE player_settings SET notify = 'dm' WHERE reminders = 'dm';
