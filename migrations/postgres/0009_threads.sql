-- A thread per game: the thread where a game is played (NULL: in its channel), server settings
-- (moderators may turn game threads off), and the notices moderators were given once about a
-- permission the bot lacks in their server.
ALTER TABLE games ADD COLUMN thread_id BIGINT;
CREATE UNIQUE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE server_settings (
    guild_id    BIGINT PRIMARY KEY,
    threads     BIGINT NOT NULL DEFAULT 1 CHECK (threads IN (0, 1)),
    updated_at  BIGINT NOT NULL
);

CREATE TABLE moderator_notices (
    guild_id  BIGINT NOT NULL,
    topic     TEXT NOT NULL,
    told_at   BIGINT NOT NULL,
    PRIMARY KEY (guild_id, topic)
);
