-- Seeks (`/seek`): a member's wish to play any of several variants of the games, at any time
-- per move within a range, in one server. A compatible seek of another member there is matched
-- at once and the game starts; otherwise the seek waits until a member matches it, its author
-- withdraws it, or it expires. `variants` holds the variants' option lines (as games store
-- them) separated by `|`, in the author's order. `channel_id` is where the game it starts is
-- played: where it was asked for, or the server's seek channel once its card is posted there
-- (`message_id`). `game_id` names the game that matched it. Ids are bit-cast as in 0001.
CREATE TABLE seeks (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    player_id        INTEGER NOT NULL REFERENCES players(id),
    variants         TEXT    NOT NULL,
    min_days         INTEGER NOT NULL,
    max_days         INTEGER NOT NULL,
    rated            INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('open', 'matched', 'withdrawn', 'expired')),
    message_id       INTEGER,
    game_id          INTEGER,
    created_at       INTEGER NOT NULL,
    expires_at       INTEGER NOT NULL
);
CREATE INDEX seeks_open ON seeks (guild_id, status, expires_at);

-- A server's seek channel, where seeks left unmatched are posted with their Accept buttons.
CREATE TABLE seek_channels (
    guild_id    INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

-- The role a server pings with a seek of a game (`kind`, the game's name): members take it or
-- drop it with a button.
CREATE TABLE seek_roles (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    role_id     INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, kind)
);
