-- Tournaments in a server: Swiss and round-robin events whose games are ordinary games, tagged
-- with their tournament and round. Times are Unix seconds (claims: Unix milliseconds); ids are
-- bit-cast as in 0001.

CREATE TABLE tournaments (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,             -- where it is announced and its games played
    creator_id        INTEGER NOT NULL REFERENCES players(id),
    name              TEXT    NOT NULL,
    kind              TEXT    NOT NULL CHECK (kind IN ('inphexion', 'exxit')),
    options           TEXT    NOT NULL,             -- variant line of its games
    format            TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'double_round_robin')),
    -- Swiss: the rounds chosen; round robin: NULL until it starts, then the rounds of its table.
    rounds            INTEGER CHECK (rounds IS NULL OR rounds >= 1),
    seconds_per_move  INTEGER NOT NULL,
    rated             INTEGER NOT NULL CHECK (rated IN (0, 1)),
    max_players       INTEGER CHECK (max_players IS NULL OR max_players >= 2),  -- NULL: no limit
    starts_at         INTEGER,                      -- end of sign-up; NULL: started by hand
    status            TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    rounds_paired     INTEGER NOT NULL DEFAULT 0,   -- the rounds whose pairings are stored
    winner_id         INTEGER REFERENCES players(id),
    message_id        INTEGER,                      -- its announcement (Join / Leave, the count)
    thread_id         INTEGER,                      -- its thread, where threads are on
    -- A process pairing the next round holds this claim (ms) while it computes; the pairing is
    -- stored in one transaction that also checks `version`, so a round is never paired twice.
    advancing_until   INTEGER,
    version           INTEGER NOT NULL DEFAULT 0,   -- raised by every change
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    finished_at       INTEGER
);

CREATE INDEX tournaments_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE UNIQUE INDEX tournaments_by_message ON tournaments (message_id) WHERE message_id IS NOT NULL;

CREATE TABLE tournament_players (
    tournament_id    INTEGER NOT NULL REFERENCES tournaments(id),
    player_id        INTEGER NOT NULL REFERENCES players(id),
    seed             INTEGER NOT NULL,              -- starting rank (the pairing number), from 1
    joined_round     INTEGER NOT NULL DEFAULT 0,    -- rounds paired when they joined (0: before)
    withdrawn_round  INTEGER,                       -- rounds paired when they withdrew; NULL: in
    timeouts         INTEGER NOT NULL DEFAULT 0,    -- tournament games lost on time
    joined_at        INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_id),
    UNIQUE (tournament_id, seed)
);

-- One row per game or bye of a round. A game's row names it (`game_id`, once started): that is
-- the tag of a game with its tournament and round.
CREATE TABLE tournament_pairings (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id    INTEGER NOT NULL REFERENCES tournaments(id),
    round            INTEGER NOT NULL CHECK (round >= 1),
    board            INTEGER NOT NULL,              -- its place in the round, from 1
    white_id         INTEGER NOT NULL REFERENCES players(id),  -- the first seat; the bye's player
    black_id         INTEGER REFERENCES players(id),           -- NULL: a bye
    bye_halves       INTEGER CHECK (bye_halves IS NULL OR bye_halves IN (0, 1, 2)),
    game_id          INTEGER REFERENCES games(id),
    -- NULL while undecided; a game's `white` / `black` / `draw` (played), `white_forfeit` /
    -- `black_forfeit` (won by the named side without play), `void` (neither scores, no game);
    -- `bye` for a bye.
    result           TEXT CHECK (result IS NULL OR result IN
                        ('white', 'black', 'draw', 'white_forfeit', 'black_forfeit', 'void', 'bye')),
    CHECK ((black_id IS NULL) = (bye_halves IS NOT NULL)),
    UNIQUE (tournament_id, round, board)
);

CREATE UNIQUE INDEX tournament_pairings_game ON tournament_pairings (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX tournament_pairings_open ON tournament_pairings (tournament_id, result);

-- Who may create tournaments in a server: members who manage it or its events (0), or everyone (1).
ALTER TABLE server_settings ADD COLUMN tournaments_open INTEGER NOT NULL DEFAULT 0 CHECK (tournaments_open IN (0, 1));
