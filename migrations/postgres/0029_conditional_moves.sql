-- A player's conditional moves in a game ("if they play X, I play Y", several moves deep, several
-- branches), seen only by them: the lines of the tree as a JSON array of arrays of move
-- notations, each line the opponent's move then the player's reply, alternately, from the
-- position after `at_ply` moves (where the opponent is to move).
CREATE TABLE conditional_moves (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    user_id     BIGINT NOT NULL,
    at_ply      BIGINT NOT NULL,
    lines       TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
