/**
 * The Kafka transport, on the application's producer factory.
 */
@NullMarked
package dev.outboxstarter.kafka;

import org.jspecify.annotations.NullMarked;
