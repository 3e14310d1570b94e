package dev.outboxstarter.compatibility;

import java.nio.charset.StandardCharsets;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.spi.PublishPath;
import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.CapturedOutboxEvents;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter in an application on the Spring Boot and the Java this module runs (its build says
 * which, in {@code compatibility.spring-boot} and {@code compatibility.java}): an order's event is
 * captured in its transaction, seen by the test kit, and reaches a real Kafka broker through the path
 * the subclass expects.
 */
@SpringBootTest(classes = CompatibilityApplication.class)
@AutoConfigureOutbox(recordedTransports = {})
abstract class CompatibilityTests {

	static final String TOPIC = "compatibility-orders";

	@Autowired
	private Ordering ordering;

	@Autowired
	private CapturedOutboxEvents captured;

	@Autowired
	private PublishPaths paths;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", KafkaBroker::bootstrapServers);
	}

	@BeforeAll
	static void runsOnTheSpringBootAndJavaItIsMeantFor() {
		String springBoot = System.getProperty("compatibility.spring-boot");
		if (springBoot != null) {
			assertThat(SpringBootVersion.getVersion()).as("Spring Boot").startsWith(springBoot + ".");
		}
		String java = System.getProperty("compatibility.java");
		if (java != null) {
			assertThat(Runtime.version().feature()).as("Java").isEqualTo(Integer.parseInt(java));
		}
	}

	/**
	 * The path that is to publish the events of this test class's application.
	 * @return the path
	 */
	abstract PublishPath expectedPath();

	@Test
	void placedOrdersEventIsCapturedAndReachesKafkaKeyedByTheOrder() {
		PurchaseOrder order = this.ordering.place("alice");
		String key = order.getId().toString();

		assertThat(this.captured.payloads(OrderPlaced.class)).containsExactly(new OrderPlaced(order.getId(), "alice"));
		ConsumerRecord<String, String> record = KafkaBroker.awaitRecord(TOPIC, key);
		assertThat(record.value()).contains("\"customer\":\"alice\"");
		assertThat(new String(record.headers().lastHeader(OutboxHeaders.EVENT_TYPE).value(), StandardCharsets.UTF_8))
			.isEqualTo("OrderPlaced");
		assertThat(this.paths.of(key)).isEqualTo(expectedPath());
	}

}
