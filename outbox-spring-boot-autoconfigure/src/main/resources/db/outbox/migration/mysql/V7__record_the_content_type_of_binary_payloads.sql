-- Payload formats other than JSON. content_type: the media type of a payload that a payload serializer wrote
-- (Avro, Protobuf), which the payload column then holds in Base64; null for a JSON payload, as every row
-- written before this version has.
--
-- Added instantly, at the end of the row, within a 10-second lock wait and outside a transaction, for the
-- reasons given in V6.
SET SESSION lock_wait_timeout = 10;
ALTER TABLE ${table} ADD COLUMN content_type VARCHAR(255), ALGORITHM=INSTANT;
SET SESSION lock_wait_timeout = DEFAULT;
