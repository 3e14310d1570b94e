package dev.outboxstarter.modulith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.modulith.shop.ShopApplication;
import dev.outboxstarter.modulith.shop.orders.Orders;
import dev.outboxstarter.modulith.shop.shipping.Shipping;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * What a module's externalized events become in outbox mode: rows of the business transaction,
 * published by the outbox to the topic and key Modulith's routing gives them.
 */
class ExternalizedEventDeliveryTests extends ShopIntegrationTests {

	private static final Pattern LINE = Pattern.compile("\"line\":(\\d+)");

	@Autowired
	private Orders orders;

	@Autowired
	private Shipping shipping;

	@Autowired
	private JdbcTemplate jdbc;

	@Test
	void externalizedEventsOfATransactionalServiceArriveOnceAndInOrderPerCustomer() {
		String run = UUID.randomUUID().toString();
		List<String> customers = List.of(run + "-ada", run + "-bob", run + "-cy");
		for (int order = 0; order < 3; order++) {
			for (String customer : customers) {
				this.orders.place(customer + "-order-" + order, customer, 4);
			}
		}

		Map<String, List<Received>> byCustomer = awaitOrderEvents(run, 36);
		assertThat(byCustomer).containsOnlyKeys(customers);
		byCustomer.forEach((customer, records) -> {
			assertThat(records).extracting((record) -> record.header(OutboxHeaders.MESSAGE_ID))
				.as("events of %s", customer)
				.hasSize(12)
				.doesNotHaveDuplicates();
			List<String> expected = new ArrayList<>();
			for (int order = 0; order < 3; order++) {
				for (int line = 1; line <= 4; line++) {
					expected.add(customer + "-order-" + order + "#" + line);
				}
			}
			assertThat(records).extracting(ExternalizedEventDeliveryTests::orderLine)
				.as("events of %s in commit order", customer)
				.containsExactlyElementsOf(expected);
		});
		// Modulith's registry records no publication of its own for them: the outbox alone delivers them.
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM event_publication WHERE serialized_event LIKE ?",
				Integer.class, "%" + run + "%")).isZero();
	}

	@Test
	void aRolledBackTransactionPublishesNothing() {
		String run = UUID.randomUUID().toString();
		String customer = run + "-dan";
		assertThatIllegalStateException().isThrownBy(() -> this.orders.placeAndFail(customer + "-refused", customer));
		this.orders.place(customer + "-accepted", customer, 1);

		// The later event of the same key arrives after any earlier one would have.
		Map<String, List<Received>> byCustomer = awaitOrderEvents(run, 1);
		assertThat(byCustomer.get(customer)).extracting(ExternalizedEventDeliveryTests::orderLine)
			.containsExactly(customer + "-accepted#1");
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + ShopServices.OUTBOX_TABLE + " WHERE payload LIKE ?",
				Integer.class, "%" + customer + "-refused%")).isZero();
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM modulith_shop_order WHERE customer = ?", Integer.class,
				customer)).isOne();
	}

	@Test
	void eventsCommittedWhileTheBrokerIsDownAreNotLostAndArriveInOrderOnceItIsBack() {
		String run = UUID.randomUUID().toString();
		List<String> customers = List.of(run + "-eve", run + "-fay");
		KafkaBrokerProcess broker = ShopServices.broker();
		broker.stop();
		try {
			for (String customer : customers) {
				this.orders.place(customer + "-order", customer, 3);
			}
			// Each customer's first event was tried and failed; the business transactions committed.
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> this.jdbc.queryForObject("SELECT COUNT(DISTINCT message_key) FROM "
						+ ShopServices.OUTBOX_TABLE + " WHERE message_key LIKE ? AND attempts > 0", Integer.class,
						run + "%") == 2);
			assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + ShopServices.OUTBOX_TABLE
					+ " WHERE message_key LIKE ? AND status = 'PENDING'", Integer.class, run + "%")).isEqualTo(6);
		}
		finally {
			broker.startAgain();
		}

		// A record the producer still held when the broker went away may arrive as well as its retry:
		// each event counts once, where it first arrived.
		Map<String, List<Received>> byCustomer = awaitOrderEvents(run, 6);
		assertThat(byCustomer).containsOnlyKeys(customers);
		byCustomer.forEach((customer, records) -> assertThat(firstArrivals(records))
			.extracting(ExternalizedEventDeliveryTests::orderLine)
			.as("events of %s", customer)
			.containsExactly(customer + "-order#1", customer + "-order#2", customer + "-order#3"));
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + ShopServices.OUTBOX_TABLE
				+ " WHERE message_key LIKE ? AND status = 'DEAD'", Integer.class, run + "%")).isZero();
	}

	@Test
	void anEventTheExternalizationConfigurationSelectsIsSentMappedRoutedAndWithItsHeaders() {
		String order = UUID.randomUUID() + "-order";
		this.shipping.dispatch(order + "-shipment", order, "tortoise-express");

		try (TopicRecorder topic = new TopicRecorder(ShopServices.broker().bootstrapServers(),
				ShopApplication.SHIPMENTS_TOPIC)) {
			Received received = await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> topic.poll().stream().filter((record) -> order.equals(record.key())).toList(),
						(records) -> !records.isEmpty())
				.get(0);
			assertThat(received.value()).isEqualTo("{\"orderId\":\"" + order + "\",\"carrier\":\"tortoise-express\"}");
			assertThat(received.header("shipment-carrier")).isEqualTo("tortoise-express");
			assertThat(received.header(OutboxHeaders.EVENT_TYPE)).isEqualTo("ShipmentDispatched");
			assertThat(received.header(OutboxHeaders.MESSAGE_ID)).isNotBlank();
		}
	}

	/**
	 * Waits until the orders topic holds the expected number of a run's events, then reads it to its
	 * end, and returns the run's records by key, in the order they arrived.
	 */
	private static Map<String, List<Received>> awaitOrderEvents(String run, int expected) {
		try (TopicRecorder topic = new TopicRecorder(ShopServices.broker().bootstrapServers(),
				ShopApplication.ORDERS_TOPIC)) {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> ofRun(topic.poll(), run).size() >= expected);
			List<Received> records = ofRun(topic.pollToEnd(), run);
			Map<String, List<Received>> byKey = new LinkedHashMap<>();
			for (Received record : records) {
				byKey.computeIfAbsent(record.key(), (key) -> new ArrayList<>()).add(record);
			}
			return byKey;
		}
	}

	private static List<Received> ofRun(List<Received> records, String run) {
		return records.stream().filter((record) -> record.key() != null && record.key().startsWith(run)).toList();
	}

	private static List<Received> firstArrivals(List<Received> records) {
		Map<String, Received> byMessageId = new LinkedHashMap<>();
		records.forEach((record) -> byMessageId.putIfAbsent(record.header(OutboxHeaders.MESSAGE_ID), record));
		return List.copyOf(byMessageId.values());
	}

	/** {@code orderId#line} of an {@code OrderPlaced} message. */
	private static String orderLine(Received record) {
		String value = record.value();
		Matcher orderId = Pattern.compile("\"orderId\":\"([^\"]+)\"").matcher(value);
		Matcher line = LINE.matcher(value);
		assertThat(orderId.find() && line.find()).as("an order line in %s", value).isTrue();
		return orderId.group(1) + "#" + line.group(1);
	}

}
