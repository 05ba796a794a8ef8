-- Members' data on request (`/privacy`) and servers the bot left.
-- A member who had hexcord delete their data keeps a tombstone here: their name and language are
-- erased and `forgotten_at` set, so every text naming them reads "a former member" while their
-- games stay for their opponents. NULL: a member.
ALTER TABLE players ADD COLUMN forgotten_at BIGINT;

-- Servers the bot was removed from, and when: their settings are removed after a grace period
-- unless the bot is added back first (which deletes the row).
CREATE TABLE server_departures (
    guild_id  BIGINT PRIMARY KEY,
    left_at   BIGINT NOT NULL
);
