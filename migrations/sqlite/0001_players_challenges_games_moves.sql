-- Discord ids (users, guilds, channels, messages) are stored as INTEGER by bit-casting u64 to i64
-- (see src/db/mod.rs). Times are Unix seconds.

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,        -- Discord user id
    name        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE challenges (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER,
    channel_id     INTEGER NOT NULL,
    challenger_id  INTEGER NOT NULL REFERENCES players(id),
    opponent_id    INTEGER NOT NULL REFERENCES players(id),
    options        TEXT    NOT NULL,          -- variant line, e.g. `inphexion size=7 pie`
    rated          INTEGER NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'expired')),
    message_id     INTEGER,
    game_id        INTEGER,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL
);

CREATE INDEX challenges_open ON challenges (status, challenger_id, opponent_id);

CREATE TABLE games (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id          INTEGER,
    channel_id        INTEGER NOT NULL,
    kind              TEXT    NOT NULL CHECK (kind IN ('inphexion', 'exxit')),
    options           TEXT    NOT NULL,       -- variant line
    first_player_id   INTEGER NOT NULL REFERENCES players(id),  -- starts with the first colour
    second_player_id  INTEGER NOT NULL REFERENCES players(id),
    rated             INTEGER NOT NULL,
    status            TEXT    NOT NULL CHECK (status IN ('active', 'finished', 'aborted')),
    result            TEXT,                   -- e.g. `white wins: connection`
    winner_id         INTEGER,                -- NULL for a draw or an unfinished game
    board_message_id  INTEGER,                -- the message showing the current board
    version           INTEGER NOT NULL DEFAULT 0,  -- the ply count: moves stored
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    finished_at       INTEGER
);

CREATE INDEX games_channel ON games (channel_id, status);
CREATE INDEX games_first ON games (first_player_id, status);
CREATE INDEX games_second ON games (second_player_id, status);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    ply        INTEGER NOT NULL,              -- 1 for the first move
    notation   TEXT    NOT NULL,              -- canonical notation
    player_id  INTEGER NOT NULL,
    played_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
