-- Delayed delivery. deliver_at: the time a delayed event was asked to be published at (null for an event
-- published at once); its available_at starts there. delay_holds_key: whether a delayed event holds back the
-- later events of its key while it waits (null for an event published at once). Rows written before this
-- version have neither, as events published at once.
--
-- Adding nullable columns without a default changes only the catalogue, not the rows, so the statement is
-- over at once; but it needs the table's exclusive lock for that moment, and while it waits for the lock
-- (behind a long transaction) every insert queues behind it. The lock timeout ends such a wait after 10
-- seconds with an error that fails start-up, naming it, instead of holding up business writes; start again
-- once that transaction is over.
SET LOCAL lock_timeout = '10s';
ALTER TABLE ${table} ADD COLUMN deliver_at TIMESTAMPTZ, ADD COLUMN delay_holds_key BOOLEAN;
