-- Learn to play (hexcord::learn, `/learn`): the levels a member finished, and the level they
-- are playing. A level is named `<game>/<level id>` as the course's files give it. Times are
-- Unix seconds; ids are bit-cast as in 0001.
CREATE TABLE learn_progress (
    player_id  INTEGER NOT NULL REFERENCES players(id),
    level      TEXT    NOT NULL,
    -- The best stars earned (1–3).
    stars      INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 3),
    done_at    INTEGER NOT NULL,
    PRIMARY KEY (player_id, level)
);

-- The level a member is playing: the moves so far (theirs and the replies, in notation,
-- separated by `;`), the moves they tried (refused ones too, for the stars), and a version
-- bumped at every change, which the level's buttons name (an older picker is stale).
CREATE TABLE learn_attempts (
    player_id   INTEGER PRIMARY KEY REFERENCES players(id),
    level       TEXT    NOT NULL,
    moves       TEXT    NOT NULL,
    tries       INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
