package dev.outboxstarter.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.it.orders.OrderPlaced;
import dev.outboxstarter.it.orders.OrderService;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import dev.outboxstarter.testsupport.TopicRecorder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Closing an instance whose publishing is stuck (the broker does not answer) takes a bounded time and
 * loses nothing: the events stay pending and the next instance publishes them.
 */
class GracefulShutdownIntegrationTests {

	private static final String TOPIC = "it-shutdown";

	private static final String TABLE = "outbox_it_shutdown";

	@Test
	void closingAStuckInstanceIsBoundedAndTheNextInstancePublishesWhatWasLeft() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 3);
		TcpForwarder broker = TcpForwarder.onFreePort(TestKafka.bootstrapServers());
		String prefix = "shutdown-" + UUID.randomUUID();
		try {
			ConfigurableApplicationContext first = start(broker);
			for (int i = 0; i < 20; i++) {
				first.getBean(OrderService.class).place(prefix + "-" + i, new OrderPlaced(prefix + "-" + i, 1));
			}
			// The fast path is now blocked in a send that waits for broker metadata (max.block.ms=30s, the publish timeout).
			long closing = System.nanoTime();
			first.close();
			Duration closeTook = Duration.ofNanos(System.nanoTime() - closing);
			assertThat(closeTook).as("bounded by outbox.shutdown-timeout, not by the stuck send")
				.isLessThan(Duration.ofSeconds(20));
			JdbcTemplate jdbc = new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource());
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'PENDING'", Integer.class))
				.isEqualTo(20);

			broker.open();
			try (ConfigurableApplicationContext next = start(broker);
					TopicRecorder topic = new TopicRecorder(TestKafka.bootstrapServers(), TOPIC)) {
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(100))
					.until(() -> topic.poll().stream().filter((record) -> record.value().contains(prefix)).count() >= 20);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM " + TABLE + " WHERE status = 'PUBLISHED'",
							Integer.class) == 20);
			}
		}
		finally {
			broker.close();
		}
	}

	private static ConfigurableApplicationContext start(TcpForwarder broker) {
		List<String> arguments = new ArrayList<>(List.of("test.topic=" + TOPIC, "outbox.table-name=" + TABLE,
				"outbox.shutdown-timeout=2s", "outbox.publish-timeout=30s", "outbox.relay.poll-interval=100ms",
				"outbox.fast-path.grace-period=1s", "spring.kafka.bootstrap-servers=" + broker.address(),
				"spring.kafka.producer.properties.max.block.ms=30000"));
		arguments.addAll(List.of(TestDatabase.POSTGRESQL.properties()));
		return new SpringApplicationBuilder(OrdersTestApplication.class).web(WebApplicationType.NONE)
			.run(arguments.stream().map((argument) -> "--" + argument).toArray(String[]::new));
	}

}
