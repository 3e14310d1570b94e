-- The outbox table for MariaDB and MySQL. ${table} is the configured outbox.table-name.
-- Times are DATETIME(6) in UTC (TIMESTAMP would end in 2038).
CREATE TABLE ${table} (
    id             CHAR(36)      CHARACTER SET ascii NOT NULL,
    seq            BIGINT        NOT NULL AUTO_INCREMENT,
    aggregate_type VARCHAR(255),
    aggregate_id   VARCHAR(255),
    event_type     VARCHAR(255)  NOT NULL,
    transport      VARCHAR(64)   NOT NULL,
    destination    VARCHAR(255)  NOT NULL,
    message_key    VARCHAR(255),
    payload        LONGTEXT      NOT NULL,
    headers        TEXT,
    status         VARCHAR(16)   NOT NULL DEFAULT 'PENDING',
    attempts       INT           NOT NULL DEFAULT 0,
    available_at   DATETIME(6)   NOT NULL,
    last_error     VARCHAR(2000),
    created_at     DATETIME(6)   NOT NULL,
    published_at   DATETIME(6),
    PRIMARY KEY (id),
    UNIQUE KEY ${table}_seq_uk (seq),
    -- No partial indexes here: status leads, so pending rows form one contiguous range.
    KEY ${table}_pending_idx (status, seq),
    KEY ${table}_key_idx (status, transport, destination, message_key, seq)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
