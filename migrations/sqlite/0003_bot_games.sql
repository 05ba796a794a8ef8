-- Games against the bot itself. The bot's seat in `games` holds the bot's own Discord user id;
-- this table adds the level it plays at. Such games are never rated.
CREATE TABLE bot_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games(id),
    level    TEXT    NOT NULL CHECK (level IN ('easy', 'medium', 'hard'))
);
