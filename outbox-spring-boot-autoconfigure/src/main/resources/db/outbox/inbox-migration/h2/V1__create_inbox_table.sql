-- The inbox for H2: message ids a consumer has processed. ${table} is the configured
-- outbox.inbox.table-name. The primary key decides whether a message is new: the insert, not a read.
CREATE TABLE ${table} (
    consumer     VARCHAR(255)             NOT NULL,
    message_id   VARCHAR(255)             NOT NULL,
    processed_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT ${table}_pk PRIMARY KEY (consumer, message_id)
);

CREATE INDEX ${table}_processed_idx ON ${table} (processed_at);
