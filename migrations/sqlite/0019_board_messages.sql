-- A board a newer one replaced is edited to say what happened next: its announcement is found
-- by the message it was posted as.
CREATE INDEX announcements_message ON announcements (message_id) WHERE message_id IS NOT NULL;
