-- The delivery queue's searches look at pending announcements only: indexes over those rows, so
-- that the history of posted ones (kept) never slows the search for the next to post.
DROP INDEX announcements_due;
DROP INDEX announcements_queue;
-- The pending rows, oldest first: the delivery task looks for what to post among the oldest.
CREATE INDEX announcements_pending ON announcements (id) WHERE status = 'pending';
