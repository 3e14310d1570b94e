-- Earlier DEAD rows of a key, for outbox.dead-event-blocks-key=true and for listing and retrying dead
-- events. (MariaDB/MySQL and H2 use their (status, transport, destination, message_key, seq) index.)
CREATE INDEX ${table}_dead_key_idx ON ${table} (transport, destination, message_key, seq) WHERE status = 'DEAD';
