-- Payload formats other than JSON. content_type: the media type of a payload that a payload serializer wrote
-- (Avro, Protobuf), which the payload column then holds in Base64; null for a JSON payload, as every row
-- written before this version has.
--
-- A nullable column without a default changes only the catalogue; the lock timeout bounds the wait for the
-- table's exclusive lock, as in V6.
SET LOCAL lock_timeout = '10s';
ALTER TABLE ${table} ADD COLUMN content_type VARCHAR(255);
