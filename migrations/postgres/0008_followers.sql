-- Members following a game: mentioned with its result.
CREATE TABLE followers (
    game_id  BIGINT NOT NULL REFERENCES games (id),
    user_id  BIGINT NOT NULL,
    since    BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
