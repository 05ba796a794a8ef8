-- Seeks across servers. `seeks.anywhere`: its author lets it be matched with the seeks of
-- members of other servers who let theirs be too; such a game is played in the two members'
-- direct messages with the bot. `server_settings.pool_closed`: the server's moderators keep it
-- out (its members' seeks are matched in the server only, and no other server's seek is matched
-- with theirs). `blocks`: a member (`user_id`) never matched with, nor challenged or accepted by,
-- another (`blocked_user_id`). Flags are 0/1 as in 0001.
ALTER TABLE seeks ADD COLUMN anywhere INTEGER NOT NULL DEFAULT 0;
CREATE INDEX seeks_anywhere ON seeks (anywhere, status, expires_at);

ALTER TABLE server_settings ADD COLUMN pool_closed INTEGER NOT NULL DEFAULT 0;

CREATE TABLE blocks (
    user_id          INTEGER NOT NULL,
    blocked_user_id  INTEGER NOT NULL,
    created_at       INTEGER NOT NULL,
    PRIMARY KEY (user_id, blocked_user_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_user_id);
