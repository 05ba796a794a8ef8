-- The pending announcements of one queue, in order: the delivery task reads the boards queued
-- behind the one it posts, to fold a burst of moves into one post.
CREATE INDEX announcements_pending_queue ON announcements (queue, id) WHERE status = 'pending';
