-- The pending index, which the relay walks in seq order, now says its rows have a due time (every row has
-- one): the relay's claim says so too, with its available_at <= now(), but the per-key ordering checks do
-- not, so they can only use the key index, whatever the statistics say. Before, when the statistics came
-- from a vacuum that found no pending row, the planner could take the pending index for those checks and
-- walk every earlier pending row once per row checked.
--
-- Built next to the old index and swapped in by name, CONCURRENTLY, so that business transactions keep
-- writing to the table while the build reads it (minutes on a table of a week's published rows). That runs
-- outside a transaction (V5__index_pending_rows_with_a_due_time.sql.conf), statement by statement, so the
-- script can be cut short anywhere and is written to be run again: a build a crash or a timeout stopped
-- leaves its index INVALID, and the first statement drops it. The lock timeout turns a wait behind another
-- session's lock (a long transaction, other DDL) into a failure that names it instead of a start-up that
-- hangs; the wait takes no lock that business writes queue behind.
SET lock_timeout = '1min';
DROP INDEX CONCURRENTLY IF EXISTS ${table}_pending_due_idx;
CREATE INDEX CONCURRENTLY ${table}_pending_due_idx ON ${table} (seq) WHERE status = 'PENDING' AND available_at IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS ${table}_pending_idx;
ALTER INDEX ${table}_pending_due_idx RENAME TO ${table}_pending_idx;
RESET lock_timeout;
