-- The bot's `beginner` level, below `easy`.
ALTER TABLE bot_games DROP CONSTRAINT bot_games_level_check;
ALTER TABLE bot_games ADD CONSTRAINT bot_games_level_check
    CHECK (level IN ('beginner', 'easy', 'medium', 'hard'));
