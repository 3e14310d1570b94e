-- Cleanup: published (and dead) rows in the order they expire.
CREATE INDEX ${table}_cleanup_idx ON ${table} (status, published_at);
