-- The outbox table. ${table} is the configured outbox.table-name.
CREATE TABLE ${table} (
    id             UUID          NOT NULL PRIMARY KEY,
    seq            BIGINT        GENERATED ALWAYS AS IDENTITY,
    aggregate_type VARCHAR(255),
    aggregate_id   VARCHAR(255),
    event_type     VARCHAR(255)  NOT NULL,
    transport      VARCHAR(64)   NOT NULL,
    destination    VARCHAR(255)  NOT NULL,
    message_key    VARCHAR(255),
    payload        TEXT          NOT NULL,
    headers        TEXT,
    status         VARCHAR(16)   NOT NULL DEFAULT 'PENDING',
    attempts       INTEGER       NOT NULL DEFAULT 0,
    available_at   TIMESTAMPTZ   NOT NULL,
    last_error     VARCHAR(2000),
    created_at     TIMESTAMPTZ   NOT NULL,
    published_at   TIMESTAMPTZ,
    CONSTRAINT ${table}_status_check CHECK (status IN ('PENDING', 'PUBLISHED', 'DEAD'))
);

-- Relay scan: pending rows in insertion order.
CREATE INDEX ${table}_pending_idx ON ${table} (seq) WHERE status = 'PENDING';

-- Head-of-line check: earlier pending rows of the same ordering key.
CREATE INDEX ${table}_key_idx ON ${table} (transport, destination, message_key, seq) WHERE status = 'PENDING';
