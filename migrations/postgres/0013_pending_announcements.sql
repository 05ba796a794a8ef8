-- The delivery queue's searches look at pending announcements only: indexes over those rows, so
-- that the history of posted ones (kept) never slows the search for the next to post.
DROP INDEX announcements_due;
DROP INDEX announcements_queue;
-- The pending rows, oldest first: the delivery task looks for what to post among the oldest.
CREATE INDEX announcements_pending ON announcements (id) WHERE status = 'pending';
-- A queue table: every row is written three times in a few seconds. Its statistics and dead rows
-- are seen to far sooner than PostgreSQL's defaults (a fifth and a tenth of the table) would,
-- so that plans follow the queue's real size from the first minutes.
ALTER TABLE announcements SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 200,
                               autovacuum_analyze_scale_factor = 0.02, autovacuum_analyze_threshold = 200);
