-- CloudEvents ids are unique per source only, so the source joins the key: two producers may both send
-- an event 1001. Messages with an id unique everywhere (the outbox's own) have no source and store an
-- empty one, as do the ids processed before this version, which are kept. H2 compares VARCHAR values
-- as Java strings: with their case and trailing spaces (unless opened with IGNORECASE=TRUE).
ALTER TABLE ${table} ADD COLUMN message_source VARCHAR(255) DEFAULT '' NOT NULL BEFORE message_id;
ALTER TABLE ${table} DROP CONSTRAINT ${table}_pk;
ALTER TABLE ${table} ADD CONSTRAINT ${table}_pk PRIMARY KEY (consumer, message_source, message_id);
