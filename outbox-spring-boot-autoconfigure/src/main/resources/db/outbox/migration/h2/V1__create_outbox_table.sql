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
    -- Not "status IN (...)": H2 2.4.240 evaluates a CHECK with a constant IN list (or an OR of
    -- equalities, which it rewrites to one) with the session that created it, so once Flyway's
    -- connection is closed every insert fails with "Check constraint invalid" (23514); see
    -- h2database issues #4291 and #4308. A CASE is evaluated with the inserting session.
    CONSTRAINT ${table}_status_check CHECK (
        CASE status WHEN 'PENDING' THEN TRUE WHEN 'PUBLISHED' THEN TRUE WHEN 'DEAD' THEN TRUE ELSE FALSE END)
);

CREATE INDEX ${table}_pending_idx ON ${table} (status, seq);
CREATE INDEX ${table}_key_idx ON ${table} (status, transport, destination, message_key, seq);
