-- Open challenges: a challenge without an opponent, posted for any member of its server to
-- accept. `opponent_id` is NULL until a member accepts it (then it names them);
-- `min_rating`/`max_rating` bound the rating (in the server's pool for the game) of whoever
-- accepts. SQLite cannot drop a NOT NULL constraint: the table is rebuilt with the same rows
-- (no other table refers to it).
CREATE TABLE challenges_new (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id          INTEGER,
    channel_id        INTEGER NOT NULL,
    challenger_id     INTEGER NOT NULL REFERENCES players(id),
    opponent_id       INTEGER REFERENCES players(id),
    options           TEXT    NOT NULL,
    rated             INTEGER NOT NULL,
    status            TEXT    NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'expired')),
    message_id        INTEGER,
    game_id           INTEGER,
    created_at        INTEGER NOT NULL,
    expires_at        INTEGER NOT NULL,
    seconds_per_move  INTEGER NOT NULL DEFAULT 259200,
    challenger_first  INTEGER NOT NULL DEFAULT 1 CHECK (challenger_first IN (0, 1)),
    rematch_of        INTEGER REFERENCES games (id),
    time_control      TEXT,
    weekends_off      INTEGER NOT NULL DEFAULT 0,
    min_rating        INTEGER,
    max_rating        INTEGER
);

INSERT INTO challenges_new (id, guild_id, channel_id, challenger_id, opponent_id, options, rated,
                            status, message_id, game_id, created_at, expires_at,
                            seconds_per_move, challenger_first, rematch_of, time_control,
                            weekends_off)
SELECT id, guild_id, channel_id, challenger_id, opponent_id, options, rated, status, message_id,
       game_id, created_at, expires_at, seconds_per_move, challenger_first, rematch_of,
       time_control, weekends_off
  FROM challenges;

DROP TABLE challenges;
ALTER TABLE challenges_new RENAME TO challenges;
CREATE INDEX challenges_open ON challenges (status, challenger_id, opponent_id);
