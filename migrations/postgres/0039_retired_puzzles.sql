-- A starter puzzle dropped from the set shipped with hexcord (found to have a second answer) is
-- retired when the new set is imported: kept for the attempts and daily posts that name it,
-- never given or posted again.
ALTER TABLE puzzles ADD COLUMN retired_at BIGINT;
