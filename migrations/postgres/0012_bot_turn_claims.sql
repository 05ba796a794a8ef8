-- Claims on the bot's turns, so that with several processes exactly one searches a game's move
-- and another takes over when a process dies: Unix milliseconds until which the claim holds.
ALTER TABLE bot_games ADD COLUMN claimed_until BIGINT;
