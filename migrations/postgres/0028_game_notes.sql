-- A member's private notes on a game (a player's or a follower's), seen only by them: one text
-- per member and game, replaced as a whole when they edit it.
CREATE TABLE game_notes (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    user_id     BIGINT NOT NULL,
    body        TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
