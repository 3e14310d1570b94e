-- The outbox table for H2. ${table} is the configured outbox.table-name.
CREATE TABLE ${table} (
    id             UUID                     NOT NULL PRIMARY KEY,
    seq            BIGINT                   GENERATED ALWAYS AS IDENTITY UNIQUE,
    aggregate_type VARCHAR(255),
    aggregate_id   VARCHAR(255),
    event_type     VARCHAR(255)             NOT NULL,
    transport      VARCHAR(64)              NOT NULL,
    destination    VARCHAR(255)             NOT NULL,
    message_key    VARCHAR(255),
    payload        CHARACTER LARGE OBJECT   NOT NULL,
    headers        CHARACTER LARGE OBJECT,
    status         VARCHAR(16)              DEFAULT 'PENDING' NOT NULL,
    attempts       INTEGER                  DEFAULT 0 NOT NULL,
    available_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    last_error     VARCHAR(2000),
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    published_at   TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ${table}_status_check CHECK (status IN ('PENDING', 'PUBLISHED', 'DEAD'))
);

CREATE INDEX ${table}_pending_idx ON ${table} (status, seq);
CREATE INDEX ${table}_key_idx ON ${table} (status, transport, destination, message_key, seq);
