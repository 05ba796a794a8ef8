-- An organiser may pause a running tournament's next round: while `paused` is 1 the games under
-- way go on, but no round is paired and the event does not end until it is resumed.
ALTER TABLE tournaments ADD COLUMN paused BIGINT NOT NULL DEFAULT 0 CHECK (paused IN (0, 1));
