-- Delayed delivery. deliver_at: the time a delayed event was asked to be published at (null for an event
-- published at once); its available_at starts there. delay_holds_key: whether a delayed event holds back the
-- later events of its key while it waits (null for an event published at once). Rows written before this
-- version have neither, as events published at once.
--
-- Nullable columns added at the end of the row: MariaDB (10.3+) and MySQL (8.0.12+) add them instantly,
-- changing only the table's definition, which ALGORITHM=INSTANT demands rather than copy the table while
-- writes wait (it fails instead on a server that cannot). It still needs the table's exclusive metadata lock
-- for that moment, and while it waits for the lock (behind a transaction that has used the table) every
-- insert queues behind it. The session's lock wait timeout, a year by default, ends such a wait after 10
-- seconds with an error that fails start-up, naming it, instead of holding up business writes; start again
-- once that transaction is over. The ALTER is applied whole or not at all, and DDL commits on its own here
-- anyway: the script runs outside a transaction (see its .conf), so that a version that gave up runs again at
-- the next start rather than being recorded by Flyway as a failure to repair by hand.
SET SESSION lock_wait_timeout = 10;
ALTER TABLE ${table} ADD COLUMN deliver_at DATETIME(6), ADD COLUMN delay_holds_key BOOLEAN, ALGORITHM=INSTANT;
SET SESSION lock_wait_timeout = DEFAULT;
