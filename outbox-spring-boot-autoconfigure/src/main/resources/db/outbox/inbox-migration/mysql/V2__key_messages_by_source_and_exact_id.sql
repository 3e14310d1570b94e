-- CloudEvents ids are unique per source only, so the source joins the key: two producers may both send
-- an event 1001. Messages with an id unique everywhere (the outbox's own) have no source and store an
-- empty one, as do the ids processed before this version, which are kept.
-- The key columns become binary: compared byte for byte, where the ascii columns before compared without
-- case (Ab3 was aB3), ignored trailing spaces ('id-1 ' was 'id-1') and stored '?' for every character
-- outside ASCII. The kept ids are ASCII and were unique under those rules, so they are unique byte for
-- byte too. One statement, so the table is never left half changed; it rebuilds the table.
ALTER TABLE ${table}
    MODIFY consumer VARBINARY(255) NOT NULL,
    ADD COLUMN message_source VARBINARY(255) NOT NULL DEFAULT '' AFTER consumer,
    MODIFY message_id VARBINARY(255) NOT NULL,
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (consumer, message_source, message_id);
