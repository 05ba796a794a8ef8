-- The web board's lobby shows a member the open seeks and challenges of their servers.
-- `server_members`: the servers a member was seen in (any command or button press there records
-- it; leaving the server, or the bot leaving it, removes it). `server_settings.name`: the server's
-- name as Discord last gave it, shown beside its seeks and challenges.
CREATE TABLE server_members (
    guild_id  BIGINT  NOT NULL,
    user_id   BIGINT  NOT NULL,
    seen_at   BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX server_members_user ON server_members (user_id);

ALTER TABLE server_settings ADD COLUMN name TEXT;
