-- Play outside servers (hexcord installed to a member's account, used in direct messages and
-- group chats): whether the bot may send the member a direct message of its own. Discord lets
-- it when the member shares a server with the bot or installed the app to their account; the
-- bot notes it when the member acts in a server, in the bot's direct messages or through their
-- own installation. Members stored before came from servers.
ALTER TABLE players ADD COLUMN reachable INTEGER NOT NULL DEFAULT 0;
UPDATE players SET reachable = 1;
