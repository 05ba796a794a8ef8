-- Correspondence play and server ratings. Times are Unix seconds; ids are bit-cast as in 0001.

-- The time per move chosen with the challenge, copied to the game it starts.
ALTER TABLE challenges ADD COLUMN seconds_per_move INTEGER NOT NULL DEFAULT 259200;

ALTER TABLE games ADD COLUMN seconds_per_move INTEGER NOT NULL DEFAULT 259200;
-- When the player to move loses on time; NULL once the game is over.
ALTER TABLE games ADD COLUMN deadline_at INTEGER;
-- Reminders already sent for the current turn (0, 1 or 2); back to 0 with each move.
ALTER TABLE games ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0;
-- The order in which rated results were applied to the ratings (NULL: not applied).
ALTER TABLE games ADD COLUMN rating_seq INTEGER;

-- Games that were active before deadlines existed get a full turn from their last change.
UPDATE games SET deadline_at = updated_at + seconds_per_move WHERE status = 'active';

CREATE INDEX games_deadline ON games (status, deadline_at);

CREATE TABLE player_settings (
    player_id   INTEGER PRIMARY KEY REFERENCES players(id),
    reminders   TEXT    NOT NULL DEFAULT 'channel' CHECK (reminders IN ('channel', 'dm', 'off')),
    updated_at  INTEGER NOT NULL
);

CREATE TABLE vacations (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    starts_at   INTEGER NOT NULL,
    ends_at     INTEGER NOT NULL
);

CREATE INDEX vacations_player ON vacations (player_id, ends_at);

-- Glicko-2 ratings, one table per server and game kind.
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('inphexion', 'exxit')),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, kind, player_id)
);

CREATE INDEX ratings_table ON ratings (guild_id, kind, rating);
