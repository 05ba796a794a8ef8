-- Languages: each member's Discord language as last seen (for their direct messages), each
-- server's (for its public messages), and the language moderators chose for their server.
ALTER TABLE players ADD COLUMN locale TEXT;
ALTER TABLE server_settings ADD COLUMN locale TEXT;
ALTER TABLE server_settings ADD COLUMN language TEXT;
