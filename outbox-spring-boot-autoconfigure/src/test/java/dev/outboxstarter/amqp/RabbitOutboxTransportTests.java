package dev.outboxstarter.amqp;

import java.net.SocketException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.RabbitTestBroker.QueueRecorder;
import dev.outboxstarter.testsupport.SendFailure;
import dev.outboxstarter.testsupport.TcpForwarder;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.AmqpIOException;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory.ConfirmType;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Which of a real RabbitMQ publisher's failures the transport reports as the broker being unavailable,
 * and which as the message's own.
 */
class RabbitOutboxTransportTests {

	@Test
	void destinationAnOperatorGivesMustNameAnExchangeAndARoutingKey() {
		CachingConnectionFactory connections = connections(RabbitTestBroker.PORT);
		RabbitOutboxTransport transport = new RabbitOutboxTransport(new RabbitTemplate(connections));

		assertThatIllegalArgumentException().isThrownBy(() -> transport.checkDestination("orders-replay"))
			.withMessage("RabbitMQ destination 'orders-replay' is not of the shape <exchange>/<routing key>: write "
					+ "'orders-replay/<routing key>' for an exchange, '/orders-replay' for the queue of that name on "
					+ "the default exchange");
		transport.checkDestination("orders/order.replayed");
		transport.checkDestination("/orders-replay");
		connections.destroy();
	}

	@Test
	void brokerThatCannotBeReachedIsUnavailable() throws Exception {
		try (TcpForwarder closed = TcpForwarder.onFreePort(RabbitTestBroker.address())) {
			CachingConnectionFactory connections = connections(closed.port());
			try {
				RabbitOutboxTransport transport = new RabbitOutboxTransport(new RabbitTemplate(connections));

				Throwable failure = SendFailure.of(transport, message("amq.direct/anything"));

				assertThat(transport.isUnavailable(failure)).as("unavailable: %s", failure).isTrue();
			}
			finally {
				connections.destroy();
			}
		}
	}

	@Test
	void messageWhoseConfirmIsPendingWhenTheConnectionIsLostIsUnavailable() throws Exception {
		QueueRecorder queue = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("transport-connection-lost"), "", "",
				Map.of());
		try (TcpForwarder forwarder = TcpForwarder.onFreePort(RabbitTestBroker.address())) {
			forwarder.open(RabbitTestBroker.withholdingPublisherConfirms());
			CachingConnectionFactory connections = connections(forwarder.port());
			try {
				RabbitOutboxTransport transport = new RabbitOutboxTransport(new RabbitTemplate(connections));
				CompletableFuture<?> confirmed = transport.send(message("/" + queue.queue()));
				// The broker has the message; its confirm is pending when the connection is lost.
				await().atMost(Duration.ofSeconds(30)).until(() -> !queue.poll().isEmpty());
				assertThat(confirmed).isNotDone();

				forwarder.close();

				Throwable failure = catchThrowableOfType(ExecutionException.class,
						() -> confirmed.get(30, TimeUnit.SECONDS)).getCause();
				assertThat(transport.isUnavailable(failure)).as("unavailable: %s", failure).isTrue();
				assertThat(transport.isPermanent(failure)).isFalse();
				assertThat(failure).hasMessageContaining("its channel closed before the broker confirmed it");
			}
			finally {
				connections.destroy();
			}
		}
		finally {
			queue.close();
		}
	}

	@Test
	void messageWhoseChannelClosedBeforeItWasPublishedIsUnavailable() throws Exception {
		CachingConnectionFactory connections = connections(RabbitTestBroker.PORT);
		try {
			RabbitTemplate template = new RabbitTemplate(connections);
			AtomicBoolean connectionLost = new AtomicBoolean();
			// The connection is lost between the template taking a cached channel and publishing on it.
			template.addBeforePublishPostProcessors((outgoing) -> {
				if (connectionLost.compareAndSet(false, true)) {
					connections.resetConnection();
				}
				return outgoing;
			});
			RabbitOutboxTransport transport = new RabbitOutboxTransport(template);

			Throwable failure = SendFailure.of(transport, message("amq.direct/anything"));

			assertThat(connectionLost).isTrue();
			assertThat(transport.isUnavailable(failure)).as("unavailable: %s", failure).isTrue();
			assertThat(failure).hasMessageContaining("was not published: its channel closed");
		}
		finally {
			connections.destroy();
		}
	}

	@Test
	void messageTheBrokerRefusesWithANackIsItsOwnFailure() throws Exception {
		QueueRecorder refusing = RabbitTestBroker.record(RabbitTestBroker.uniqueQueue("transport-refusing"), "", "",
				Map.of("x-max-length", 0, "x-overflow", "reject-publish"));
		CachingConnectionFactory connections = connections(RabbitTestBroker.PORT);
		try {
			RabbitOutboxTransport transport = new RabbitOutboxTransport(new RabbitTemplate(connections));

			Throwable failure = SendFailure.of(transport, message("/" + refusing.queue()));

			assertThat(failure).hasMessageContaining("was not acknowledged by the broker");
			assertThat(transport.isUnavailable(failure)).isFalse();
		}
		finally {
			connections.destroy();
			refusing.close();
		}
	}

	@Test
	void sendThatFailsWritingToALostConnectionIsUnavailable() {
		CachingConnectionFactory connections = connections(RabbitTestBroker.PORT);
		try {
			RabbitOutboxTransport transport = new RabbitOutboxTransport(new RabbitTemplate(connections));

			// What RabbitTemplate.send throws when the socket breaks under a publish.
			assertThat(transport.isUnavailable(new AmqpIOException(new SocketException("Broken pipe")))).isTrue();
		}
		finally {
			connections.destroy();
		}
	}

	@Test
	void unroutableMessageIsItsOwnFailure() throws Exception {
		CachingConnectionFactory connections = connections(RabbitTestBroker.PORT);
		try {
			RabbitOutboxTransport transport = new RabbitOutboxTransport(new RabbitTemplate(connections));

			Throwable failure = SendFailure.of(transport, message("amq.direct/no-queue-is-bound-" + UUID.randomUUID()));

			assertThat(failure).hasMessageContaining("unroutable");
			assertThat(transport.isUnavailable(failure)).isFalse();
		}
		finally {
			connections.destroy();
		}
	}

	private static CachingConnectionFactory connections(int port) {
		CachingConnectionFactory connections = new CachingConnectionFactory(RabbitTestBroker.HOST, port);
		connections.setPublisherConfirmType(ConfirmType.CORRELATED);
		connections.setPublisherReturns(true);
		return connections;
	}

	private static OutboxMessage message(String destination) {
		return new OutboxMessage(UUID.randomUUID(), "test", null, null, destination, "key", "{}", Map.of(),
				Instant.now());
	}

}
