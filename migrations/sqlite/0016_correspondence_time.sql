-- Correspondence time: Fischer clocks counted in days, weekends off, time zones, the daily digest
-- and pauses by agreement. Times are Unix seconds; ids are bit-cast as in 0001. Games stored
-- before keep their fixed time per move: every new column is empty or off for them, and their
-- deadlines are not rewritten.

-- How a game's time is kept (`per-move:SECONDS` or `fischer:INITIAL:INCREMENT:CAP`; NULL: the
-- fixed `seconds_per_move`), and whether its clock stops for weekends in the mover's time zone.
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE games ADD COLUMN weekends_off INTEGER NOT NULL DEFAULT 0;
-- Each seat's bank: for the seat to move, what its current turn started with; for the other,
-- what its next turn starts with. NULL for games without a time control.
ALTER TABLE games ADD COLUMN first_bank INTEGER;
ALTER TABLE games ADD COLUMN second_bank INTEGER;
-- When the current turn's clock started, and when its next reminder is due (NULL: none, or a
-- game reminded by the fixed rule).
ALTER TABLE games ADD COLUMN turn_started_at INTEGER;
ALTER TABLE games ADD COLUMN remind_at INTEGER;
CREATE INDEX games_remind ON games (status, remind_at);

-- The time the mover had left when making the move, so a takeback gives back the bank exactly.
ALTER TABLE moves ADD COLUMN left_before INTEGER;

-- The time control and weekends off a challenge or tournament gives its games.
ALTER TABLE challenges ADD COLUMN time_control TEXT;
ALTER TABLE challenges ADD COLUMN weekends_off INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN time_control TEXT;
ALTER TABLE tournaments ADD COLUMN weekends_off INTEGER NOT NULL DEFAULT 0;

-- A member's time zone (IANA name) and how they hear that it is their move: a message per move,
-- one digest a day at `digest_hour` in their zone, or nothing. `digest_day` is the last local day
-- (days since 1970-01-01 in their zone) whose digest was claimed: it is sent once.
ALTER TABLE player_settings ADD COLUMN time_zone TEXT;
ALTER TABLE player_settings ADD COLUMN notifications TEXT NOT NULL DEFAULT 'move'
    CHECK (notifications IN ('move', 'digest', 'none'));
ALTER TABLE player_settings ADD COLUMN digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23);
ALTER TABLE player_settings ADD COLUMN digest_day INTEGER;

-- A server's time zone (for members without one) and whether its new games take weekends off.
ALTER TABLE server_settings ADD COLUMN time_zone TEXT;
ALTER TABLE server_settings ADD COLUMN weekends_off INTEGER NOT NULL DEFAULT 0;

-- Pauses by agreement: proposed by one player, accepted or declined by the other; an accepted
-- pause stops the clock from `starts_at` to `ends_at` (moved earlier when both agree to resume).
CREATE TABLE game_pauses (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    proposed_by  INTEGER NOT NULL,
    seconds      INTEGER NOT NULL CHECK (seconds > 0),
    proposed_at  INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('proposed', 'declined', 'accepted')),
    starts_at    INTEGER,
    ends_at      INTEGER,
    -- Who asked to resume early, while the other has not agreed.
    resume_by    INTEGER
);
CREATE INDEX game_pauses_game ON game_pauses (game_id, status);
-- At most one open proposal per game.
CREATE UNIQUE INDEX game_pauses_one_proposal ON game_pauses (game_id) WHERE status = 'proposed';
