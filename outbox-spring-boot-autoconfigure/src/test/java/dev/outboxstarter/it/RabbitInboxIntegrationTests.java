package dev.outboxstarter.it;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.IdempotentConsumer;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.it.orders.OrdersTestApplication;
import dev.outboxstarter.testsupport.RabbitTestBroker;
import dev.outboxstarter.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.rabbit.annotation.Queue;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The inbox with a real {@code @RabbitListener} on PostgreSQL: a message delivered twice, as after a
 * lost acknowledgement, has its effect once, and the duplicate is counted.
 */
@SpringBootTest(classes = OrdersTestApplication.class,
		properties = { "test.topic=unused", "outbox.table-name=outbox_it_rabbit_inbox", "outbox.inbox.enabled=true",
				"outbox.inbox.table-name=" + RabbitInboxIntegrationTests.INBOX, "outbox.rabbit.enabled=false" })
@Import(RabbitInboxIntegrationTests.ConsumerConfiguration.class)
class RabbitInboxIntegrationTests {

	static final String QUEUE = "it-rabbit-inbox";

	static final String CLOUDEVENTS_QUEUE = "it-rabbit-inbox-cloudevents";

	static final String CLOUDEVENT_SOURCES_QUEUE = "it-rabbit-inbox-cloudevent-sources";

	static final String INBOX = "inbox_it_rabbit";

	static {
		TestDatabase.POSTGRESQL.dropTable("outbox_it_rabbit_inbox");
		TestDatabase.POSTGRESQL.dropTable(INBOX);
		RabbitTestBroker.deleteQueue(QUEUE);
		RabbitTestBroker.deleteQueue(CLOUDEVENTS_QUEUE);
		RabbitTestBroker.deleteQueue(CLOUDEVENT_SOURCES_QUEUE);
	}

	@Autowired
	private RabbitTemplate rabbit;

	@Autowired
	private Consumer consumer;

	@Autowired
	private MeterRegistry meters;

	@Autowired
	private JdbcTemplate jdbc;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		TestDatabase.POSTGRESQL.register(registry);
		RabbitTestBroker.register(registry, RabbitTestBroker.PORT);
	}

	@Test
	void aMessageDeliveredTwiceHasItsEffectOnce() {
		String twice = UUID.randomUUID().toString();
		String once = UUID.randomUUID().toString();
		send(twice, "first copy");
		send(twice, "second copy");
		send(once, "only copy");

		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.meters.find("outbox.inbox.processed").tag("consumer", "invoicing").counter() != null
					&& this.consumer.effects().containsAll(List.of(twice, once)));
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.meters.find("outbox.inbox.duplicates").tag("consumer", "invoicing").counter() != null);
		assertThat(this.meters.get("outbox.inbox.duplicates").tag("consumer", "invoicing").counter().count())
			.isEqualTo(1);
		assertThat(this.consumer.effects()).containsExactly(twice, once);
		assertThat(this.jdbc.queryForList("SELECT message_id FROM " + INBOX + " WHERE consumer = 'invoicing'",
				String.class))
			.containsExactlyInAnyOrder(twice, once);
	}

	@Test
	void aCloudEventOfAnotherProducerDeliveredTwiceHasItsEffectOnceByItsCloudEventsId() {
		String twice = "ce-" + UUID.randomUUID();
		String once = "ce-" + UUID.randomUUID();
		sendCloudEvent(twice);
		sendCloudEvent(twice);
		sendCloudEvent(once);

		await().atMost(Duration.ofSeconds(20)).until(() -> this.consumer.cloudEvents().contains(once));
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.meters.find("outbox.inbox.duplicates").tag("consumer", "auditing").counter() != null);
		assertThat(this.meters.get("outbox.inbox.duplicates").tag("consumer", "auditing").counter().count())
			.isEqualTo(1);
		assertThat(this.consumer.cloudEvents()).containsExactly(twice, once);
	}

	@Test
	void cloudEventsOfTwoProducersWithTheSameIdAreTwoMessagesAndACopyOfEitherIsSkipped() {
		String id = "1001-" + UUID.randomUUID();
		String last = "last-" + UUID.randomUUID();
		sendCloudEvent(CLOUDEVENT_SOURCES_QUEUE, id, "/inventory");
		sendCloudEvent(CLOUDEVENT_SOURCES_QUEUE, id, "/payments");
		sendCloudEvent(CLOUDEVENT_SOURCES_QUEUE, id, "/payments");
		sendCloudEvent(CLOUDEVENT_SOURCES_QUEUE, last, "/inventory");

		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.meters.find("outbox.inbox.processed").tag("consumer", "audit-sources").counter() != null
					&& this.meters.get("outbox.inbox.processed").tag("consumer", "audit-sources").counter().count()
							+ duplicates("audit-sources") >= 4);
		assertThat(this.consumer.sourcedCloudEvents()).containsExactly("/inventory " + id, "/payments " + id,
				"/inventory " + last);
		assertThat(duplicates("audit-sources")).isEqualTo(1);
	}

	private double duplicates(String consumer) {
		var counter = this.meters.find("outbox.inbox.duplicates").tag("consumer", consumer).counter();
		return (counter != null) ? counter.count() : 0;
	}

	private void sendCloudEvent(String id) {
		sendCloudEvent(CLOUDEVENTS_QUEUE, id, "/another-service");
	}

	/** A CloudEvent in the AMQP binding's binary mode, with no outbox header and no AMQP message id. */
	private void sendCloudEvent(String queue, String id, String source) {
		Message message = MessageBuilder.withBody("{\"entry\":1}".getBytes())
			.setContentType("application/json")
			.setHeader("cloudEvents:specversion", "1.0")
			.setHeader("cloudEvents:id", id)
			.setHeader("cloudEvents:source", source)
			.setHeader("cloudEvents:type", "com.acme.audit.entry-recorded")
			.build();
		this.rabbit.send("", queue, message);
	}

	private void send(String messageId, String body) {
		Message message = MessageBuilder.withBody(body.getBytes())
			.setMessageId(messageId)
			.setHeader(OutboxHeaders.MESSAGE_ID, messageId)
			.build();
		this.rabbit.send("", QUEUE, message);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ConsumerConfiguration {

		@Bean
		Consumer consumer() {
			return new Consumer();
		}

	}

	static class Consumer {

		private final List<String> effects = new CopyOnWriteArrayList<>();

		private final List<String> cloudEvents = new CopyOnWriteArrayList<>();

		private final List<String> sourcedCloudEvents = new CopyOnWriteArrayList<>();

		@RabbitListener(queuesToDeclare = @Queue(QUEUE))
		@IdempotentConsumer("invoicing")
		public void onMessage(Message message) {
			this.effects.add(message.getMessageProperties().getMessageId());
		}

		// Through a method: the test holds the class-based proxy, whose own fields are unused.
		public List<String> effects() {
			return this.effects;
		}

		@RabbitListener(queuesToDeclare = @Queue(CLOUDEVENTS_QUEUE))
		@IdempotentConsumer("auditing")
		public void onCloudEvent(Message message) {
			this.cloudEvents.add(message.getMessageProperties().getHeader("cloudEvents:id"));
		}

		public List<String> cloudEvents() {
			return this.cloudEvents;
		}

		@RabbitListener(queuesToDeclare = @Queue(CLOUDEVENT_SOURCES_QUEUE))
		@IdempotentConsumer("audit-sources")
		public void onSourcedCloudEvent(Message message) {
			this.sourcedCloudEvents.add(message.getMessageProperties().getHeader("cloudEvents:source") + " "
					+ message.getMessageProperties().getHeader("cloudEvents:id"));
		}

		public List<String> sourcedCloudEvents() {
			return this.sourcedCloudEvents;
		}

	}

}
