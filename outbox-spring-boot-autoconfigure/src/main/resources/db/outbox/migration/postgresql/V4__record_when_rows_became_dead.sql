-- When a row became DEAD, which outbox.cleanup.dead-retention counts from: set by the statement that makes
-- a row DEAD, cleared when it is retried, null otherwise (so inserts do not write it). Rows DEAD before
-- this version take their available_at: the failure that made them DEAD set it to its own time plus at
-- most outbox.retry.max-delay, so they are kept a little longer than their retention, never shorter.
ALTER TABLE ${table} ADD COLUMN dead_at TIMESTAMPTZ;
UPDATE ${table} SET dead_at = available_at WHERE status = 'DEAD';
