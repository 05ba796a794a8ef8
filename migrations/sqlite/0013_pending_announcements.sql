-- The delivery queue's searches look at pending announcements only: indexes over those rows, so
-- that the history of posted ones (kept) never slows the search for the next to post.
DROP INDEX announcements_due;
DROP INDEX announcements_queue;
-- The pending rows by queue: the first of each queue is the one to post next.
CREATE INDEX announcements_pending ON announcements (queue, id) WHERE status = 'pending';
