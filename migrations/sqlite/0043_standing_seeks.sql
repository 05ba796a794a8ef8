-- Standing seeks (`/seek` with `keep`): a member's wish to be kept in `keep` games of some
-- variants in one server. Whenever they have fewer active games of those variants there and no
-- open seek made from it, a seek with its terms is made (matched at once or posted); none while
-- they are on vacation. `channel_id` is where it was asked for (its seeks' cards are posted there
-- when the server has no seek channel); `lasts` is how long each of its seeks stays open, in
-- seconds. `busy_until` is the claim of the process making a seek from it: no other process
-- makes one before that time (0: free). Its member stops it (the row is deleted). `variants`
-- and ids as in 0042's seeks.
CREATE TABLE standing_seeks (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    player_id        INTEGER NOT NULL REFERENCES players(id),
    variants         TEXT    NOT NULL,
    min_days         INTEGER NOT NULL,
    max_days         INTEGER NOT NULL,
    rated            INTEGER NOT NULL,
    keep             INTEGER NOT NULL CHECK (keep > 0),
    lasts            INTEGER NOT NULL,
    busy_until       INTEGER NOT NULL DEFAULT 0,
    created_at       INTEGER NOT NULL
);
CREATE INDEX standing_seeks_player ON standing_seeks (player_id, guild_id);

-- The standing seek a seek was made from, if any (it may have been stopped since).
ALTER TABLE seeks ADD COLUMN standing_id INTEGER;
CREATE INDEX seeks_standing ON seeks (standing_id, status);
