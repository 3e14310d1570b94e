-- Delayed delivery. deliver_at: the time a delayed event was asked to be published at (null for an event
-- published at once); its available_at starts there. delay_holds_key: whether a delayed event holds back the
-- later events of its key while it waits (null for an event published at once). Rows written before this
-- version have neither, as events published at once.
--
-- Nullable columns added at the end of the row: MariaDB (10.3+) and MySQL (8.0.12+) add them instantly,
-- changing only the table's definition, which ALGORITHM=INSTANT demands rather than copy the table while
-- writes wait (it fails instead on a server that cannot). It still takes the table's metadata lock for a
-- moment, and waits for transactions that hold it.
ALTER TABLE ${table} ADD COLUMN deliver_at DATETIME(6), ADD COLUMN delay_holds_key BOOLEAN, ALGORITHM=INSTANT;
