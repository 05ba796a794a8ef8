-- Whose turn it is and what went wrong delivering a game's messages, stored with each change so
-- that listings are plain queries. Times of announcements are Unix milliseconds.

-- The player to move in an active game (NULL once it is over; filled at start for games that
-- predate this column).
ALTER TABLE games ADD COLUMN to_move_id INTEGER;
-- Why the game's last announcement could not be posted where it belongs (NULL when fine).
ALTER TABLE games ADD COLUMN delivery_fault TEXT;

CREATE INDEX games_to_move ON games (to_move_id, status);

-- The delivery queue: every public message that follows from a change, written in the same
-- transaction as the change, posted by the delivery task in `id` order within each `queue`.
CREATE TABLE announcements (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    queue            TEXT    NOT NULL,     -- `game:12`, `challenge:3`, `user:…`: order is kept within one
    game_id          INTEGER,
    body             TEXT    NOT NULL,     -- JSON: where, what, which picture, who to tell on failure
    status           TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER NOT NULL,     -- not before (ms)
    claimed_until    INTEGER,              -- a delivery under way holds it until then (ms)
    created_at       INTEGER NOT NULL,     -- ms
    sent_at          INTEGER,              -- ms
    message_id       INTEGER,
    error            TEXT
);

CREATE INDEX announcements_due ON announcements (status, next_attempt_at);
CREATE INDEX announcements_queue ON announcements (queue, status, id);
