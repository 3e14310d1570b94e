package dev.outboxstarter.schemaregistry;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.schemaregistry.avro.OrderPlaced;
import dev.outboxstarter.schemaregistry.server.SchemaRegistryProcess;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import io.apicurio.registry.resolver.SchemaResolverConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A registry that goes away: schemas already served keep working, new ones are refused within the
 * request timeout. Each test runs a registry of its own, which it stops.
 */
class RegistryOutageTests {

	/**
	 * Far longer than any timeout of these tests: only a refusal that never comes reaches it.
	 */
	private static final Duration HANG = Duration.ofSeconds(60);

	@Test
	void schemasAlreadyServedKeepSerializingWithTheRegistryStoppedAndNewOnesAreRefused() {
		SchemaRegistryProcess registry = SchemaRegistryProcess.start();
		try (AvroPayloadSerializer serializer = serializer(registry.registryApiUrl(), Duration.ofSeconds(5),
				Map.of())) {
			SerializedPayload before = serializer.serialize(order("order-1"), kafka("orders"));
			registry.close();

			SerializedPayload after = serializer.serialize(order("order-1"), kafka("orders"));
			assertThat(after.bytes()).isEqualTo(before.bytes());
			assertThat(after.schema()).isEqualTo(before.schema());
			assertThat(serializer.serialize(order("order-2"), kafka("orders")).schema()).isEqualTo(before.schema());

			assertTimeoutPreemptively(HANG,
					() -> assertThatExceptionOfType(SchemaRegistryException.class)
						.isThrownBy(() -> serializer.serialize(order("order-3"), kafka("archived-orders")))
						.withMessageContaining("subject 'archived-orders-value'")
						.withMessageContaining(registry.registryApiUrl())
						.withMessageContaining("the schema is not cached yet")
						.withMessageContaining("does not commit"));
		}
		finally {
			registry.close();
		}
	}

	@Test
	void aSchemaWhoseCheckPeriodHasPassedKeepsSerializingWithTheRegistryStopped() {
		SchemaRegistryProcess registry = SchemaRegistryProcess.start();
		// Every use of a cached schema asks the registry again, and the registry's refusal to answer
		// leaves the schema in use.
		try (AvroPayloadSerializer serializer = serializer(registry.registryApiUrl(), Duration.ofSeconds(5),
				Map.of(SchemaResolverConfig.CHECK_PERIOD_MS, "1", SchemaResolverConfig.RETRY_COUNT, "0"))) {
			SerializedPayload before = serializer.serialize(order("order-4"), kafka("orders"));
			registry.close();

			assertThat(serializer.serialize(order("order-4"), kafka("orders")).bytes()).isEqualTo(before.bytes());
		}
		finally {
			registry.close();
		}
	}

	@Test
	void aRegistryThatDoesNotAnswerIsGivenUpOnAfterTheRequestTimeout() throws IOException {
		try (SilentServer silent = new SilentServer();
				AvroPayloadSerializer serializer = serializer(silent.url(), Duration.ofMillis(500), Map.of())) {
			assertTimeoutPreemptively(HANG,
					() -> assertThatExceptionOfType(SchemaRegistryException.class)
						.isThrownBy(() -> serializer.serialize(order("order-5"), kafka("orders")))
						.withMessageContaining("subject 'orders-value'")
						.withMessageContaining("did not answer within PT0.5S")
						.withMessageContaining("outbox.schema-registry.request-timeout"));
			assertThat(silent.connections()).isNotEmpty();
		}
	}

	private static AvroPayloadSerializer serializer(String url, Duration timeout, Map<String, String> more) {
		return new AvroPayloadSerializer(new SchemaRegistryProperties(url, WireFormat.CONFLUENT, true, timeout, more));
	}

	private static PayloadTarget kafka(String topic) {
		return new PayloadTarget("OrderPlaced", "kafka", topic);
	}

	private static OrderPlaced order(String id) {
		return OrderPlaced.newBuilder().setOrderId(id).setCustomer("ada").setAmount(4200L).build();
	}

	/**
	 * Accepts connections and never answers: a registry that hangs.
	 */
	private static final class SilentServer implements AutoCloseable {

		private final ServerSocket server;

		private final List<Socket> connections = new CopyOnWriteArrayList<>();

		SilentServer() throws IOException {
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			Thread acceptor = new Thread(() -> {
				while (!this.server.isClosed()) {
					try {
						this.connections.add(this.server.accept());
					}
					catch (IOException ex) {
						// Closed.
					}
				}
			}, "silent-registry");
			acceptor.setDaemon(true);
			acceptor.start();
		}

		String url() {
			return "http://127.0.0.1:" + this.server.getLocalPort() + "/apis/registry/v2";
		}

		List<Socket> connections() {
			return this.connections;
		}

		@Override
		public void close() throws IOException {
			this.server.close();
			for (Socket connection : this.connections) {
				connection.close();
			}
		}

	}

}
