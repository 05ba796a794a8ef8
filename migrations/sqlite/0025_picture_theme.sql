-- Pictures' colours: the theme moderators chose for their server's pictures (NULL: dark).
ALTER TABLE server_settings ADD COLUMN theme TEXT;
