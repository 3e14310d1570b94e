package dev.outboxstarter.amqp;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.SendFailure;
import dev.outboxstarter.testsupport.TcpForwarder;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory.ConfirmType;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which of a real RabbitMQ publisher's failures the transport reports as the broker being unavailable.
 */
class RabbitOutboxTransportTests {

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
