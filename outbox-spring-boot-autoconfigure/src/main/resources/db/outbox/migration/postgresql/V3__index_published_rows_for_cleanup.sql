-- Cleanup: published rows in the order they expire.
CREATE INDEX ${table}_published_idx ON ${table} (published_at) WHERE status = 'PUBLISHED';
