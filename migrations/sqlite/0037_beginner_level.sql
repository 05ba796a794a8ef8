-- The bot's `beginner` level, below `easy`: SQLite cannot change a CHECK constraint in place,
-- so the table is copied into one that allows it.
CREATE TABLE bot_games_levels (
    game_id        INTEGER PRIMARY KEY REFERENCES games(id),
    level          TEXT    NOT NULL CHECK (level IN ('beginner', 'easy', 'medium', 'hard')),
    claimed_until  INTEGER
);
INSERT INTO bot_games_levels (game_id, level, claimed_until)
    SELECT game_id, level, claimed_until FROM bot_games;
DROP TABLE bot_games;
ALTER TABLE bot_games_levels RENAME TO bot_games;
