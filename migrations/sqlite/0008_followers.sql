-- Members following a game: mentioned with its result.
CREATE TABLE followers (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    user_id  INTEGER NOT NULL,
    since    INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
