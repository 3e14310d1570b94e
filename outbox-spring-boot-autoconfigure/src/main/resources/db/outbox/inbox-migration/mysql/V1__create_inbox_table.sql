-- The inbox for MariaDB and MySQL: message ids a consumer has processed. ${table} is the configured
-- outbox.inbox.table-name. The primary key decides whether a message is new: the insert, not a read.
CREATE TABLE ${table} (
    consumer     VARCHAR(255) CHARACTER SET ascii NOT NULL,
    message_id   VARCHAR(255) CHARACTER SET ascii NOT NULL,
    processed_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (consumer, message_id),
    KEY ${table}_processed_idx (processed_at)
) ENGINE = InnoDB;
