-- Open challenges: a challenge without an opponent, posted for any member of its server to
-- accept. `opponent_id` is NULL until a member accepts it (then it names them);
-- `min_rating`/`max_rating` bound the rating (in the server's pool for the game) of whoever
-- accepts.
ALTER TABLE challenges ALTER COLUMN opponent_id DROP NOT NULL;
ALTER TABLE challenges ADD COLUMN min_rating BIGINT;
ALTER TABLE challenges ADD COLUMN max_rating BIGINT;
