package dev.outboxstarter.benchmarks.contenders.modulith;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.benchmarks.BenchmarkDatabase;
import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.SpringContender;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.modulith.events.IncompleteEventPublications;
import org.springframework.modulith.events.ResubmissionOptions;

/**
 * Spring Modulith 2.1.1 at its defaults: the JPA event publication registry and the Kafka
 * externalizer as its Kafka module sets them up. It does not retry failed publications by itself;
 * once the broker is back, this contender resubmits them as an application would on a schedule.
 */
public class ModulithContender extends SpringContender {

	private static final Log logger = LogFactory.getLog(ModulithContender.class);

	private ScheduledExecutorService resubmission;

	@Override
	protected Class<?> application() {
		return ModulithApplication.class;
	}

	@Override
	protected Map<String, Object> properties(ContenderSettings settings) {
		Map<String, Object> properties = new LinkedHashMap<>();
		// Modulith's own auto-configurations and JPA are what this contender is made of.
		properties.put("spring.autoconfigure.exclude", "");
		properties.put("namastack.outbox.enabled", false);
		properties.put("outbox.enabled", false);
		// The JPA registry creates no table; the JDBC module's DDL does, in the contender's schema.
		properties.put("spring.sql.init.mode", "always");
		properties.put("spring.sql.init.schema-locations",
				"classpath:dev/outboxstarter/benchmarks/contenders/modulith/event-publication-"
						+ BenchmarkDatabase.of(settings.jdbcUrl()).name().toLowerCase(Locale.ROOT) + ".sql");
		properties.put("spring.jpa.hibernate.ddl-auto", "none");
		properties.put("spring.jpa.open-in-view", false);
		// What the Kafka module's kafka-json.properties sets, for its JSON message converter.
		properties.put("spring.kafka.producer.value-serializer",
				"org.apache.kafka.common.serialization.ByteArraySerializer");
		return properties;
	}

	@Override
	public void placeOrder(String key, String payload) {
		bean(ModulithApplication.Orders.class).place(key, payload);
	}

	@Override
	public void brokerIsBack() {
		IncompleteEventPublications publications = bean(IncompleteEventPublications.class);
		// Publications only fail when their send does (after max.block.ms), so some fail after the broker
		// is back: keep resubmitting the failed ones, as a scheduled job in an application would. Only
		// FAILED ones are picked, so publications still queued for the listener are not sent twice.
		ResubmissionOptions failed = ResubmissionOptions.defaults().withBatchSize(10_000);
		this.resubmission = Executors.newSingleThreadScheduledExecutor();
		this.resubmission.scheduleWithFixedDelay(() -> {
			try {
				publications.resubmitIncompletePublications(failed);
			}
			catch (RuntimeException ex) {
				// A failed round must not end the schedule (the executor drops a task that throws).
				logger.warn("Resubmission failed: " + ex.getMessage());
			}
		}, 0, 500, TimeUnit.MILLISECONDS);
	}

	@Override
	public void close() {
		if (this.resubmission != null) {
			this.resubmission.shutdownNow();
		}
		super.close();
	}

}
