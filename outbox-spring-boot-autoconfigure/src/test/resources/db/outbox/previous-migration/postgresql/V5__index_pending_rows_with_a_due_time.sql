-- The pending index, which the relay walks in seq order, now says its rows have a due time (every row has
-- one): the relay's claim says so too, with its available_at <= now(), but the per-key ordering checks do
-- not, so they can only use the key index, whatever the statistics say. Before, when the statistics came
-- from a vacuum that found no pending row, the planner could take the pending index for those checks and
-- walk every earlier pending row once per row checked. Rebuilding it reads the table once while writes
-- to it wait.
DROP INDEX ${table}_pending_idx;
CREATE INDEX ${table}_pending_idx ON ${table} (seq) WHERE status = 'PENDING' AND available_at IS NOT NULL;
