package dev.outboxstarter.kafka;

import java.util.Locale;
import java.util.Map;

import dev.outboxstarter.OutboxConfigurationException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.jspecify.annotations.Nullable;

/**
 * What a Kafka producer's configuration means for the outbox, read with Kafka's defaults and its rule
 * for idempotence: on by default, and turned off by {@code acks} other than {@code all} or by
 * {@code retries=0} unless {@code enable.idempotence=true} is set.
 *
 * @param acks the acknowledgement the producer waits for: {@code all}, {@code 1} or {@code 0}
 * @param idempotent whether the producer is idempotent, and so keeps each partition's records in order
 * through retries
 * @param idempotenceSet whether {@code enable.idempotence} is set rather than left to Kafka's rule
 */
record ProducerSettings(String acks, boolean idempotent, boolean idempotenceSet) {

	private static final String ACKS_PROPERTY = "spring.kafka.producer.acks";

	static ProducerSettings of(Map<String, Object> configuration) {
		String acks = acks((String) value(configuration, ProducerConfig.ACKS_CONFIG));
		boolean idempotenceSet = configuration.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG) != null;
		boolean idempotence = (Boolean) value(configuration, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
		int retries = (Integer) value(configuration, ProducerConfig.RETRIES_CONFIG);
		boolean idempotent = idempotence && (idempotenceSet || ("all".equals(acks) && retries != 0));
		return new ProducerSettings(acks, idempotent, idempotenceSet);
	}

	/**
	 * Refuses settings with which the outbox cannot publish at least once.
	 * @throws IllegalStateException naming the property to set and its value
	 */
	void check() {
		if ("0".equals(this.acks)) {
			throw new OutboxConfigurationException("The outbox's Kafka transport needs the broker to acknowledge "
					+ "each record, but the producer has acks=0: it would mark events published that no broker may "
					+ "have stored", "Set " + ACKS_PROPERTY + "=all (or acks=all in the configuration of the "
							+ "application's ProducerFactory)");
		}
		if (this.idempotent && !"all".equals(this.acks)) {
			throw new OutboxConfigurationException("The outbox's Kafka producer has enable.idempotence=true with "
					+ "acks=" + this.acks + ", which Kafka refuses: every send would fail", "Set " + ACKS_PROPERTY
							+ "=all");
		}
	}

	/**
	 * Tells what the outbox does with these settings, unless they are Kafka's defaults.
	 * @return the description, or {@code null} when there is nothing to tell
	 */
	@Nullable String describe() {
		if (this.idempotent) {
			return null;
		}
		String reason = this.idempotenceSet ? "enable.idempotence=false" : "acks=" + this.acks;
		String description = "The outbox's Kafka producer is not idempotent (" + reason + "), so a retried record "
				+ "can land after a later record of its key: the outbox sends a key's next event only once the "
				+ "previous one is acknowledged, one event of a key per round trip to the broker. With Kafka's "
				+ "defaults (acks=all, idempotence on) a key's events go out together.";
		if ("1".equals(this.acks)) {
			description += " With acks=1 a record only the partition leader has stored is lost if that broker "
					+ "fails before a follower copies it, though its event is marked published: set " + ACKS_PROPERTY
					+ "=all to keep events through broker failures.";
		}
		return description;
	}

	/** The setting's value as Kafka parses it, or Kafka's default. */
	private static Object value(Map<String, Object> configuration, String name) {
		Object value = parsed(configuration, name);
		return (value != null) ? value : ProducerConfig.configDef().configKeys().get(name).defaultValue;
	}

	/**
	 * The value the configuration sets, as Kafka parses it.
	 * @param configuration a producer configuration
	 * @param name the setting
	 * @return its value, or {@code null} when the configuration does not set it
	 */
	static @Nullable Object parsed(Map<String, Object> configuration, String name) {
		Object value = configuration.get(name);
		return (value != null)
				? ConfigDef.parseType(name, value, ProducerConfig.configDef().configKeys().get(name).type) : null;
	}

	private static String acks(String acks) {
		String value = acks.trim().toLowerCase(Locale.ROOT);
		return "-1".equals(value) ? "all" : value;
	}

}
