-- The inbox: message ids a consumer has processed. ${table} is the configured outbox.inbox.table-name.
-- The primary key decides whether a message is new: the insert, not a read.
CREATE TABLE ${table} (
    consumer     VARCHAR(255) NOT NULL,
    message_id   VARCHAR(255) NOT NULL,
    processed_at TIMESTAMPTZ  NOT NULL,
    CONSTRAINT ${table}_pk PRIMARY KEY (consumer, message_id)
);

-- Retention: the oldest ids first.
CREATE INDEX ${table}_processed_idx ON ${table} (processed_at);
