package dev.outboxstarter.modulith;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxHeaders;
import dev.outboxstarter.modulith.shop.ShopApplication;
import dev.outboxstarter.modulith.shop.stock.Stock;
import dev.outboxstarter.modulith.shop.stock.StockWrittenOff;
import dev.outboxstarter.testsupport.TopicRecorder;
import dev.outboxstarter.testsupport.TopicRecorder.Received;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * A JPA aggregate's {@code @Externalized} domain events in outbox mode: whether Spring Data publishes
 * them on {@code save()} or a flush raises them and the outbox publishes them to the application once
 * it is over, each is written once, in the transaction that raised it; one the outbox routes by its
 * own rules too is refused, even when the flush at commit raises it.
 */
class AggregateEventTests extends ShopIntegrationTests {

	@Autowired
	private Stock stock;

	@Autowired
	private JdbcTemplate jdbc;

	@Test
	void theExternalizedEventOfASavedAggregateIsWrittenOnceAndArrivesOnce() {
		String item = UUID.randomUUID() + "-kettle";
		this.stock.stockAndReserve(item, 10, 3);

		assertThat(rowsOf(item)).isOne();
		assertThat(awaitMessages(item, 1)).extracting(Received::value)
			.containsExactly("{\"itemId\":\"" + item + "\",\"quantity\":3}");
	}

	@Test
	void theExternalizedEventAFlushRaisesFromAChangedAggregateIsWrittenOnceInItsTransaction() {
		String item = UUID.randomUUID() + "-teapot";
		this.stock.stockAndReserve(item, 10, 1);
		this.stock.reserve(item, 2);

		assertThat(rowsOf(item)).isEqualTo(2);
		List<Received> messages = awaitMessages(item, 2);
		assertThat(messages).extracting(Received::value)
			.containsExactly("{\"itemId\":\"" + item + "\",\"quantity\":1}",
					"{\"itemId\":\"" + item + "\",\"quantity\":2}");
		assertThat(messages).extracting((message) -> message.header(OutboxHeaders.MESSAGE_ID)).doesNotHaveDuplicates();
	}

	@Test
	void theExternalizedEventAFlushRaisedIsNotWrittenWhenItsTransactionRollsBack() {
		String item = UUID.randomUUID() + "-cup";
		this.stock.stockAndReserve(item, 10, 1);
		assertThatIllegalStateException().isThrownBy(() -> this.stock.reserveAndFail(item, 4));
		this.stock.reserve(item, 5);

		assertThat(rowsOf(item)).isEqualTo(2);
		assertThat(awaitMessages(item, 2)).extracting(Received::value)
			.containsExactly("{\"itemId\":\"" + item + "\",\"quantity\":1}",
					"{\"itemId\":\"" + item + "\",\"quantity\":5}");
		assertThat(this.jdbc.queryForObject("SELECT available FROM modulith_shop_stock WHERE id = ?", Integer.class,
				item)).isEqualTo(4);
	}

	@Test
	void anExternalizedOutboxEventAFlushRaisesAtCommitIsRefusedAndItsTransactionRollsBack() {
		String item = UUID.randomUUID() + "-saucer";
		this.stock.stockAndReserve(item, 10, 1);

		assertThatException().isThrownBy(() -> this.stock.writeOff(item, 6))
			.havingRootCause()
			.isInstanceOf(OutboxCaptureException.class)
			.withMessageContaining("Event " + StockWrittenOff.class.getName() + " is externalized by Spring Modulith")
			.withMessageContaining("(@OutboxEvent)");
		assertThat(rowsOf(item)).isOne();
		assertThat(this.jdbc.queryForObject("SELECT available FROM modulith_shop_stock WHERE id = ?", Integer.class,
				item)).isEqualTo(9);
	}

	private int rowsOf(String item) {
		return this.jdbc.queryForObject("SELECT COUNT(*) FROM " + ShopServices.OUTBOX_TABLE + " WHERE message_key = ?",
				Integer.class, item);
	}

	/**
	 * Waits until the stock topic holds the expected number of an item's messages, then reads it to its
	 * end, and returns all of the item's, in the order they arrived.
	 */
	private static List<Received> awaitMessages(String item, int expected) {
		try (TopicRecorder topic = new TopicRecorder(ShopServices.broker().bootstrapServers(),
				ShopApplication.STOCK_TOPIC)) {
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> of(topic.poll(), item).size() >= expected);
			return of(topic.pollToEnd(), item);
		}
	}

	private static List<Received> of(List<Received> records, String item) {
		return records.stream().filter((record) -> item.equals(record.key())).toList();
	}

}
