-- The private links to a game's web board: one row per link given to a player, holding only the
-- SHA-256 of its token (hex), never the token. A link is good for its player and game while the
-- game is active; the rows of ended games are deleted when new links are made.
CREATE TABLE web_tokens (
    hash       TEXT PRIMARY KEY,
    game_id    BIGINT NOT NULL REFERENCES games (id),
    user_id    BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX web_tokens_game ON web_tokens (game_id);
