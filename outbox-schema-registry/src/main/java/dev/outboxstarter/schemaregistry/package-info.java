/**
 * Avro and Protobuf payloads through a schema registry: {@link dev.outboxstarter.spi.OutboxPayloadSerializer
 * payload serializers} that write an event with Apicurio Registry's own Kafka serializers when it is
 * captured, the registry's id in the payload, so that Kafka and RabbitMQ consumers read the bytes
 * with the registry's deserializers, and {@code outbox.schema-registry.*} that configures them.
 */
@NullMarked
package dev.outboxstarter.schemaregistry;

import org.jspecify.annotations.NullMarked;
