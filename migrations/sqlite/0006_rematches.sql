-- A rematch swaps the colours: the challenger may be the second to move. `rematch_of` names
-- the game it follows.
ALTER TABLE challenges ADD COLUMN challenger_first INTEGER NOT NULL DEFAULT 1
    CHECK (challenger_first IN (0, 1));
ALTER TABLE challenges ADD COLUMN rematch_of INTEGER REFERENCES games (id);
