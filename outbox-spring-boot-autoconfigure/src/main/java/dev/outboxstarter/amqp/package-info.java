/**
 * The RabbitMQ transport: publisher confirms and returns, exchanges declared by the outbox.
 */
@NullMarked
package dev.outboxstarter.amqp;

import org.jspecify.annotations.NullMarked;
