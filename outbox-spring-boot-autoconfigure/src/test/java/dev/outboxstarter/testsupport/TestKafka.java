package dev.outboxstarter.testsupport;

import java.net.ServerSocket;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real Kafka broker (KRaft, in this JVM) shared by every test of the run, plus brokers on a chosen
 * port for tests that need a broker that is down at first.
 */
public final class TestKafka {

	private static EmbeddedKafkaKraftBroker shared;

	private TestKafka() {
	}

	/**
	 * The shared broker's bootstrap servers, starting it on first use.
	 * @return bootstrap servers
	 */
	public static synchronized String bootstrapServers() {
		if (shared == null) {
			shared = start(0);
			Runtime.getRuntime().addShutdownHook(new Thread(shared::destroy, "test-kafka-shutdown"));
		}
		return shared.getBrokersAsString();
	}

	/**
	 * Creates a topic on the shared broker, unless it exists.
	 * @param name the topic
	 * @param partitions its partitions
	 */
	public static void createTopic(String name, int partitions) {
		bootstrapServers();
		if (!shared.getTopics().contains(name)) {
			shared.addTopics(new NewTopic(name, partitions, (short) 1));
		}
	}

	/**
	 * Starts a broker of its own; destroy it when done.
	 * @param port the port, or 0 for any
	 * @return the started broker
	 */
	public static EmbeddedKafkaKraftBroker start(int port) {
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3);
		if (port > 0) {
			broker.kafkaPorts(port);
		}
		broker.afterPropertiesSet();
		return broker;
	}

	/**
	 * A port nothing listens on right now.
	 * @return the port
	 */
	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
