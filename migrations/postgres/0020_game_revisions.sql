-- A game's revision: one more at every committed change of the game (a move, a takeback, an
-- ending, a pause, a vacation), so that a page tells a newer state from an older one even when
-- the number of moves stays or falls.
ALTER TABLE games ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
