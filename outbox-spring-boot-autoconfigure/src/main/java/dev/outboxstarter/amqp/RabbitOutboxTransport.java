package dev.outboxstarter.amqp;

import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.rabbitmq.client.ShutdownSignalException;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.spi.CloudEventAttributes;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.amqp.AmqpConnectException;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.AmqpIOException;
import org.springframework.amqp.AmqpResourceNotAvailableException;
import org.springframework.amqp.AmqpTimeoutException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.connection.CorrelationData.Confirm;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.DisposableBean;

/**
 * Publishes outbox messages to RabbitMQ, each acknowledged by a publisher confirm.
 * <p>
 * The destination is {@code <exchange>/<routing key>} (see {@link RabbitDestination}). Each message is
 * persistent, its body the JSON payload (UTF-8, {@code application/json}), its message id the outbox
 * id (so consumers can deduplicate), its type the event type and its timestamp the time the event was
 * captured (AMQP timestamps have a precision of one second); the outbox headers, the captured headers
 * and the message key ({@value OutboxHeaders#MESSAGE_KEY}) are AMQP headers. A message captured as a
 * CloudEvent also gets the {@code cloudEvents:} application properties of the CloudEvents AMQP binding's
 * binary content mode ({@code cloudEvents:id}, {@code cloudEvents:type}, ...); its content type,
 * {@code application/json}, is the event data's.
 * <p>
 * {@link #send} publishes and returns at once; the returned future completes when the broker confirms
 * the message, and fails when the broker negatively acknowledges it or returns it as unroutable (no
 * queue bound for its routing key), both the message's own failures, or when its channel closes before
 * the confirm arrives (the connection was lost), which is the broker being unavailable: the message is
 * sent again, and never ends {@code DEAD} for it. That needs correlated publisher confirms and publisher returns on
 * the connection factory ({@code spring.rabbitmq.publisher-confirm-type=correlated},
 * {@code spring.rabbitmq.publisher-returns=true}): without them a message could be lost unnoticed, so
 * the transport refuses to be created.
 * <p>
 * The transport has a {@link RabbitTemplate} of its own, on the application's connection factory, and
 * does not use the application's {@code RabbitTemplate} bean: it must publish with {@code mandatory}
 * set, so that unroutable messages come back, and that flag is template-wide; setting it on the
 * application's template would change how the application's own messages are sent.
 */
class RabbitOutboxTransport implements OutboxTransport, DisposableBean {

	/** The transport name events are routed to. */
	public static final String NAME = "rabbit";

	private static final Log logger = LogFactory.getLog(RabbitOutboxTransport.class);

	private static final String CLOUD_EVENT_HEADER_PREFIX = "cloudEvents:";

	private static final String CLOSED_CACHED_CHANNEL = "PublisherCallbackChannel is closed";

	private final RabbitTemplate template;

	/**
	 * Creates a transport that publishes with the given template, which is the transport's own from now
	 * on: it is switched to {@code mandatory} and gets a returns callback.
	 * @param template a template on a connection factory with correlated publisher confirms and
	 * publisher returns
	 * @throws IllegalStateException when the connection factory has no correlated publisher confirms or
	 * no publisher returns
	 */
	public RabbitOutboxTransport(RabbitTemplate template) {
		checkConfirmsAndReturns(template.getConnectionFactory());
		template.setMandatory(true);
		// Returns complete each message's future through its CorrelationData; without a callback the
		// template would log a warning for every returned message.
		template.setReturnsCallback(RabbitOutboxTransport::logReturned);
		this.template = template;
	}

	/**
	 * Checks that a connection factory reports every message's fate to the publisher: correlated
	 * publisher confirms (acks and nacks per message) and publisher returns (unroutable messages).
	 * @param connectionFactory the connection factory
	 * @throws IllegalStateException when either is off, naming the property that switches it on
	 */
	public static void checkConfirmsAndReturns(ConnectionFactory connectionFactory) {
		if (!connectionFactory.isPublisherConfirms()) {
			String current = connectionFactory.isSimplePublisherConfirms() ? "simple" : "none";
			throw new OutboxConfigurationException("The outbox's RabbitMQ transport needs correlated publisher "
					+ "confirms to know that the broker took each message, but the connection factory's confirm type "
					+ "is '" + current + "'", "Set spring.rabbitmq.publisher-confirm-type=correlated (or "
							+ "outbox.rabbit.enabled=false if the outbox does not publish to RabbitMQ)");
		}
		if (!connectionFactory.isPublisherReturns()) {
			throw new OutboxConfigurationException("The outbox's RabbitMQ transport needs publisher returns to "
					+ "notice unroutable messages, but they are off on the connection factory",
					"Set spring.rabbitmq.publisher-returns=true (or outbox.rabbit.enabled=false if the outbox does "
							+ "not publish to RabbitMQ)");
		}
	}

	@Override
	public String name() {
		return NAME;
	}

	/**
	 * Sends a binary payload as the message's body and its content type as the message's.
	 */
	@Override
	public boolean sendsBinaryPayloads() {
		return true;
	}

	/**
	 * Takes a destination of the shape routes have, {@code <exchange>/<routing key>}: a name without
	 * {@code '/'}, most often a queue's or a Kafka topic's, would be taken for an exchange, and every
	 * message to it would come back unroutable.
	 */
	@Override
	public void checkDestination(String destination) {
		if (destination.indexOf('/') < 0) {
			throw new IllegalArgumentException("RabbitMQ destination '" + destination + "' is not of the shape "
					+ "<exchange>/<routing key>: write '" + destination + "/<routing key>' for an exchange, '/"
					+ destination + "' for the queue of that name on the default exchange");
		}
	}

	/**
	 * Publishes a message without waiting for the broker.
	 * @param message the message
	 * @return completes with the broker's confirm; fails with a {@link RabbitPublishException} when the
	 * message is negatively acknowledged or returned
	 * @throws org.springframework.amqp.AmqpException when the message cannot be published at all, e.g.
	 * no connection
	 */
	@Override
	public CompletableFuture<?> send(OutboxMessage message) {
		RabbitDestination destination = RabbitDestination.parse(message.destination());
		CorrelationData correlation = new CorrelationData(message.id().toString());
		try {
			this.template.send(destination.exchange(), destination.routingKey(), toAmqp(message), correlation);
		}
		catch (AmqpException ex) {
			if (isClosedCachedChannel(ex)) {
				throw new RabbitChannelClosedException("Message " + message.id() + " to "
						+ destination.describeExchange() + " with routing key '" + destination.routingKey()
						+ "' was not published: its channel closed after the connection factory handed it out "
						+ "(the connection was lost); the message is sent again", ex);
			}
			throw ex;
		}
		return correlation.getFuture().thenApply((confirm) -> confirmed(message, destination, correlation, confirm));
	}

	/**
	 * The broker cannot take messages right now, or the connection a message went out on was lost
	 * before the broker said whether it took it: no connection, or none within the connection factory's
	 * timeouts; a publish that failed on a connection or channel that was closing; a message whose
	 * channel closed before it was published or while its confirm was pending
	 * ({@link RabbitChannelClosedException}). None of these is the message's failure. A negative acknowledgement from the broker (a queue refused it,
	 * e.g. {@code x-overflow=reject-publish}) or an unroutable return is the message's own failure, and
	 * so is anything else.
	 */
	@Override
	public boolean isUnavailable(Throwable failure) {
		return failure instanceof AmqpConnectException || failure instanceof AmqpIOException
				|| failure instanceof AmqpTimeoutException || failure instanceof AmqpResourceNotAvailableException
				|| failure instanceof RabbitChannelClosedException || causedByShutdown(failure);
	}

	/**
	 * Whether Spring AMQP's caching connection factory refused the publish because the channel it had
	 * handed out closed before the message was written to it. It says so only in a plain
	 * {@link AmqpException} and its message, with no type or cause of its own.
	 */
	private static boolean isClosedCachedChannel(AmqpException failure) {
		return failure.getClass() == AmqpException.class && failure.getCause() == null
				&& CLOSED_CACHED_CHANNEL.equals(failure.getMessage());
	}

	/**
	 * Whether the channel or connection shutting down under the publish caused the failure, whatever
	 * Spring AMQP wrapped it in.
	 */
	private static boolean causedByShutdown(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ShutdownSignalException) {
				return true;
			}
		}
		return false;
	}

	private static Confirm confirmed(OutboxMessage message, RabbitDestination destination,
			CorrelationData correlation, Confirm confirm) {
		// Returns arrive before the confirm of the same message.
		ReturnedMessage returned = correlation.getReturned();
		if (returned != null) {
			throw new RabbitPublishException("Message " + message.id() + " was returned as unroutable by "
					+ RabbitDestination.describeExchange(returned.getExchange()) + " with routing key '"
					+ returned.getRoutingKey() + "': " + returned.getReplyCode() + " " + returned.getReplyText()
					+ " (no queue is bound for it)");
		}
		if (!confirm.ack()) {
			// Spring AMQP nacks every confirm still pending when a channel closes, giving why it closed as
			// the reason; a nack from the broker itself has no reason.
			String closedBecause = confirm.reason();
			if (closedBecause != null) {
				throw new RabbitChannelClosedException("Message " + message.id() + " to "
						+ destination.describeExchange() + " with routing key '" + destination.routingKey()
						+ "' was not confirmed: its channel closed before the broker confirmed it (" + closedBecause
						+ "). The connection was lost, or the broker closed the channel (e.g. because the exchange "
						+ "does not exist: the connection factory logs why); the message is sent again");
			}
			throw new RabbitPublishException("Message " + message.id() + " to " + destination.describeExchange()
					+ " with routing key '" + destination.routingKey() + "' was not acknowledged by the broker: "
					+ "basic.nack (a queue refused it, e.g. x-overflow=reject-publish, or a broker error)");
		}
		return confirm;
	}

	/**
	 * Stops the transport's template.
	 */
	@Override
	public void destroy() {
		this.template.destroy();
	}

	static Message toAmqp(OutboxMessage message) {
		MessageProperties properties = new MessageProperties();
		String contentType = message.contentType();
		if (contentType != null) {
			properties.setContentType(contentType);
		}
		else {
			properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
			properties.setContentEncoding(StandardCharsets.UTF_8.name());
		}
		properties.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
		properties.setMessageId(message.id().toString());
		properties.setType(message.eventType());
		properties.setTimestamp(Date.from(message.occurredAt()));
		Map<String, Object> headers = properties.getHeaders();
		CloudEventAttributes cloudEvent = CloudEventAttributes.of(message);
		if (cloudEvent == null) {
			headers.putAll(message.headers());
		}
		else {
			// The AMQP protocol binding's binary content mode: the attributes, and any stored ce_
			// extension, as cloudEvents: application properties; the content type is the data's.
			message.headers().forEach((name, value) -> headers.put(asAmqpCloudEventHeader(name), value));
			cloudEvent.asMap().forEach((name, value) -> headers.put(CLOUD_EVENT_HEADER_PREFIX + name, value));
		}
		put(headers, OutboxHeaders.MESSAGE_ID, message.id().toString());
		put(headers, OutboxHeaders.EVENT_TYPE, message.eventType());
		put(headers, OutboxHeaders.AGGREGATE_TYPE, message.aggregateType());
		put(headers, OutboxHeaders.AGGREGATE_ID, message.aggregateId());
		put(headers, OutboxHeaders.OCCURRED_AT, message.occurredAt().toString());
		put(headers, OutboxHeaders.MESSAGE_KEY, message.key());
		return new Message(message.payloadBytes(), properties);
	}

	private static String asAmqpCloudEventHeader(String stored) {
		return stored.startsWith(CloudEventAttributes.STORED_HEADER_PREFIX)
				? CLOUD_EVENT_HEADER_PREFIX + stored.substring(CloudEventAttributes.STORED_HEADER_PREFIX.length())
				: stored;
	}

	private static void put(Map<String, Object> headers, String name, String value) {
		if (value != null) {
			headers.put(name, value);
		}
	}

	private static void logReturned(ReturnedMessage returned) {
		if (logger.isDebugEnabled()) {
			logger.debug("Outbox message " + returned.getMessage().getMessageProperties().getMessageId()
					+ " returned by " + RabbitDestination.describeExchange(returned.getExchange())
					+ " with routing key '" + returned.getRoutingKey() + "': " + returned.getReplyCode() + " "
					+ returned.getReplyText());
		}
	}

}
