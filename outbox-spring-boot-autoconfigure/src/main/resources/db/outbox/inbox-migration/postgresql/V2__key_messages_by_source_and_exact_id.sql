-- CloudEvents ids are unique per source only, so the source joins the key: two producers may both send
-- an event 1001. Messages with an id unique everywhere (the outbox's own) have no source and store an
-- empty one, as do the ids processed before this version, which are kept. Ids were and stay compared
-- byte for byte: PostgreSQL's deterministic collations call two strings equal only if their bytes are.
ALTER TABLE ${table}
    ADD COLUMN message_source VARCHAR(255) NOT NULL DEFAULT '',
    DROP CONSTRAINT ${table}_pk,
    ADD CONSTRAINT ${table}_pk PRIMARY KEY (consumer, message_source, message_id);
