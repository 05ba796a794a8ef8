-- The daily puzzle of a server: the channel and the hour (in the server's time zone) moderators
-- chose, and the moderator who chose it (told by direct message when a post cannot be made).
-- `exhausted_at` is set when the channel was told that no unposted puzzle remains (said once),
-- and cleared by the next post.
CREATE TABLE daily_puzzles (
    guild_id        BIGINT PRIMARY KEY,
    channel_id      BIGINT NOT NULL,
    hour            BIGINT NOT NULL,
    set_by_user_id  BIGINT NOT NULL,
    exhausted_at    BIGINT,
    updated_at      BIGINT NOT NULL
);

-- Each daily post: one per server and local day (the row is claimed before the post is queued,
-- so a restart never posts twice the same day), never the same puzzle twice in a server. The
-- message is set once Discord has the post.
CREATE TABLE daily_puzzle_posts (
    guild_id    BIGINT NOT NULL,
    day         BIGINT NOT NULL,
    puzzle_id   BIGINT NOT NULL REFERENCES puzzles (id),
    channel_id  BIGINT NOT NULL,
    message_id  BIGINT,
    posted_at   BIGINT NOT NULL,
    PRIMARY KEY (guild_id, day),
    UNIQUE (guild_id, puzzle_id)
);
