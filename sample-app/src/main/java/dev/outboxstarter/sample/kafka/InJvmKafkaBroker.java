package dev.outboxstarter.sample.kafka;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.utils.Exit;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real Kafka broker in KRaft mode, in this JVM, on a free port.
 * <p>
 * Kafka's test kit deletes the broker's temporary directories from JVM shutdown hooks of its own,
 * which on Ctrl-C race with the context's orderly shutdown: the broker, still stopping, then logs
 * pages of errors about its vanished log directories. This class keeps those hooks and runs them
 * itself once the broker has stopped.
 */
public final class InJvmKafkaBroker implements DisposableBean {

	private final EmbeddedKafkaKraftBroker broker;

	private final List<Runnable> cleanups;

	private InJvmKafkaBroker(EmbeddedKafkaKraftBroker broker, List<Runnable> cleanups) {
		this.broker = broker;
		this.cleanups = cleanups;
	}

	/**
	 * Starts a broker with one topic.
	 * @param topic the topic to create
	 * @param partitions its partitions
	 * @return the running broker
	 */
	public static synchronized InJvmKafkaBroker start(String topic, int partitions) {
		List<Runnable> cleanups = new ArrayList<>();
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, partitions, topic);
		// Its default is to publish its address as the spring.kafka.bootstrap-servers system property,
		// which would outlive this context and stop the next one from starting its own broker.
		broker.brokerListProperty("sample.kafka.embedded.brokers");
		Exit.setShutdownHookAdder((name, hook) -> cleanups.add(hook));
		try {
			broker.afterPropertiesSet();
		}
		catch (RuntimeException ex) {
			cleanups.forEach(Runnable::run);
			throw ex;
		}
		finally {
			Exit.resetShutdownHookAdder();
		}
		return new InJvmKafkaBroker(broker, cleanups);
	}

	/**
	 * Where clients connect.
	 * @return the bootstrap servers, e.g. {@code localhost:41615}
	 */
	public String bootstrapServers() {
		return this.broker.getBrokersAsString();
	}

	@Override
	public void destroy() {
		try {
			this.broker.destroy();
		}
		finally {
			this.cleanups.forEach(Runnable::run);
		}
	}

}
