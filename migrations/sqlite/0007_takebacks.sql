-- Each move keeps the mover's deadline as it was before it, so a takeback can give the clock
-- back; taken-back moves stay in the game's history.
ALTER TABLE moves ADD COLUMN deadline_before INTEGER;
CREATE TABLE takebacks (
    id              INTEGER PRIMARY KEY,
    game_id         INTEGER NOT NULL REFERENCES games (id),
    ply             INTEGER NOT NULL,
    notation        TEXT    NOT NULL,
    player_id       INTEGER NOT NULL,
    played_at       INTEGER NOT NULL,
    taken_back_at   INTEGER NOT NULL
);
CREATE INDEX takebacks_by_game ON takebacks (game_id, ply);
