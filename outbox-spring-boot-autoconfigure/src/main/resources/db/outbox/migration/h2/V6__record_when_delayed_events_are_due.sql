-- Delayed delivery. deliver_at: the time a delayed event was asked to be published at (null for an event
-- published at once); its available_at starts there. delay_holds_key: whether a delayed event holds back the
-- later events of its key while it waits (null for an event published at once). Rows written before this
-- version have neither, as events published at once.
ALTER TABLE ${table} ADD COLUMN deliver_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE ${table} ADD COLUMN delay_holds_key BOOLEAN;
