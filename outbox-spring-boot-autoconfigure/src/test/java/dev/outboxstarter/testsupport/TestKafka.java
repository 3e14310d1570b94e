package dev.outboxstarter.testsupport;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real Kafka broker (KRaft, in this JVM) shared by every test of the run, addresses of it that are
 * unreachable until a test opens them, and brokers set up the same way for a test of its own.
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
			shared = start();
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
		createTopic(name, partitions, Map.of());
	}

	/**
	 * Creates a topic with settings of its own on the shared broker, unless it exists.
	 * @param name the topic
	 * @param partitions its partitions
	 * @param configs its topic-level settings, e.g. {@code max.message.bytes}
	 */
	public static void createTopic(String name, int partitions, Map<String, String> configs) {
		bootstrapServers();
		if (!shared.getTopics().contains(name)) {
			shared.addTopics(new NewTopic(name, partitions, (short) 1).configs(configs));
		}
	}

	/**
	 * Changes one setting of a topic on the shared broker, as an operator would.
	 * @param name the topic
	 * @param setting the topic-level setting, e.g. {@code max.message.bytes}
	 * @param value its new value
	 * @throws ExecutionException if the broker refuses it
	 * @throws InterruptedException if interrupted while waiting for the broker
	 */
	public static void alterTopic(String name, String setting, String value)
			throws ExecutionException, InterruptedException {
		try (AdminClient admin = AdminClient.create(Map.of("bootstrap.servers", bootstrapServers()))) {
			ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, name);
			AlterConfigOp change = new AlterConfigOp(new ConfigEntry(setting, value), AlterConfigOp.OpType.SET);
			admin.incrementalAlterConfigs(Map.of(topic, List.of(change))).all().get();
		}
	}

	/**
	 * A broker address that is unreachable until the returned forwarder is opened, then leads to the
	 * shared broker.
	 * @return the forwarder, closed
	 */
	public static TcpForwarder unreachableAddress() {
		return TcpForwarder.onFreePort(bootstrapServers());
	}

	/**
	 * Starts a broker of the caller's own that does not create a topic when a client first asks for
	 * it, as production clusters are often set up; the caller destroys it.
	 * @return the running broker
	 */
	public static EmbeddedKafkaKraftBroker startWithoutTopicCreation() {
		return start(Map.of("auto.create.topics.enable", "false"));
	}

	private static EmbeddedKafkaKraftBroker start() {
		return start(Map.of());
	}

	private static EmbeddedKafkaKraftBroker start(Map<String, String> brokerProperties) {
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 3);
		brokerProperties.forEach(broker::brokerProperty);
		// By default it publishes its address as the spring.kafka.bootstrap-servers system property,
		// which would override the address each test application is given.
		broker.brokerListProperty("outbox.test.kafka.brokers");
		broker.afterPropertiesSet();
		return broker;
	}

}
