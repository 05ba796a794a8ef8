-- Puzzles (hexcord::puzzles): positions where exactly one move keeps a won game or saves a lost
-- one, each with its line, from the starter set or from a stored game, solved by members with
-- `/puzzle`. Times are Unix seconds; ids are bit-cast as in 0001.
CREATE TABLE puzzles (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    kind              TEXT    NOT NULL CHECK (kind IN ('inphexion', 'exxit')),
    -- The variant line and the engine protocol's position line: one puzzle per position.
    variant           TEXT    NOT NULL,
    position          TEXT    NOT NULL,
    -- The solver's colour: 0 the first, 1 the second.
    to_move           INTEGER NOT NULL,
    -- The solution line in notation, as a JSON array of strings.
    solution          TEXT    NOT NULL,
    difficulty        INTEGER NOT NULL,
    chance            REAL    NOT NULL,
    second_chance     REAL    NOT NULL,
    -- 'starter': the starter set; 'game': a stored game (game_id), credited to its players.
    origin            TEXT    NOT NULL CHECK (origin IN ('starter', 'game')),
    game_id           INTEGER REFERENCES games(id),
    first_player_id   INTEGER REFERENCES players(id),
    second_player_id  INTEGER REFERENCES players(id),
    -- Moves played before the position, and the move played there in the game.
    ply               INTEGER NOT NULL,
    played            TEXT,
    -- The puzzle's own Glicko-2 rating, updated by each member's first attempt.
    rating            REAL    NOT NULL,
    deviation         REAL    NOT NULL,
    volatility        REAL    NOT NULL,
    created_at        INTEGER NOT NULL,
    UNIQUE (variant, position)
);

CREATE INDEX puzzles_rating ON puzzles (kind, rating);

-- A member's first attempt at a puzzle (the only one that counts), in a pool: a server, or the
-- pool of direct messages and group chats. 'open' while being solved: `step` solution moves
-- are played.
CREATE TABLE puzzle_attempts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    puzzle_id    INTEGER NOT NULL REFERENCES puzzles(id),
    player_id    INTEGER NOT NULL REFERENCES players(id),
    guild_id     INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'solved', 'failed')),
    step         INTEGER NOT NULL,
    started_at   INTEGER NOT NULL,
    finished_at  INTEGER,
    UNIQUE (puzzle_id, player_id)
);

CREATE INDEX puzzle_attempts_player ON puzzle_attempts (player_id, status);

-- Members' puzzle ratings (Glicko-2), one table per pool, with their record and streaks.
CREATE TABLE puzzle_ratings (
    guild_id     INTEGER NOT NULL,
    player_id    INTEGER NOT NULL REFERENCES players(id),
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    solved       INTEGER NOT NULL,
    failed       INTEGER NOT NULL,
    streak       INTEGER NOT NULL,
    best_streak  INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player_id)
);

CREATE INDEX puzzle_ratings_table ON puzzle_ratings (guild_id, rating);
