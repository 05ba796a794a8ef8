-- The private links to a member's inbox (every game waiting for their move): one row per link,
-- holding only the SHA-256 of its token (hex). A link is good for its member until it expires
-- (a week after it was made); expired rows are deleted when new links are made.
CREATE TABLE inbox_tokens (
    hash       TEXT PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
