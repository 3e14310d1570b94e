package dev.outboxstarter.faults;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxstarter.Inbox;
import dev.outboxstarter.faults.FaultVerification.Message;
import dev.outboxstarter.spi.InboxOutcomeListener;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestInboxes;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The consumer side of a fault run: two instances of one consumer each receive every message the
 * broker delivered, duplicates included, and process them through the inbox at the same time. Each
 * processing has one effect, a row in the effects table written in the handler's transaction.
 */
final class FaultInboxConsumer {

	static final String INBOX = "inbox_fault";

	static final String EFFECTS = "fault_inbox_effect";

	private FaultInboxConsumer() {
	}

	/**
	 * Processes the messages.
	 * @param database the database of the run
	 * @param messages what the broker delivered, in order
	 * @return the effects and the duplicates the inbox skipped
	 */
	static Outcome process(TestDatabase database, List<Message> messages) {
		try (HikariDataSource dataSource = new HikariDataSource()) {
			dataSource.setJdbcUrl(database.url());
			dataSource.setUsername(database.username());
			dataSource.setPassword(database.password());
			dataSource.setMaximumPoolSize(4);
			database.dropTable(INBOX);
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("DROP TABLE IF EXISTS " + EFFECTS);
			jdbc.execute("CREATE TABLE " + EFFECTS + " (message_id VARCHAR(64) NOT NULL)");
			AtomicInteger duplicates = new AtomicInteger();
			InboxOutcomeListener counting = new InboxOutcomeListener() {

				@Override
				public void duplicate(String consumer, String messageId) {
					duplicates.incrementAndGet();
				}

			};
			Inbox inbox = TestInboxes.onNewTable(dataSource, INBOX, counting);
			Runnable instance = () -> {
				for (Message message : messages) {
					try {
						inbox.process("fault-consumer", message.id(),
								() -> jdbc.update("INSERT INTO " + EFFECTS + " VALUES (?)", message.id()));
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}
			};
			CompletableFuture.allOf(CompletableFuture.runAsync(instance), CompletableFuture.runAsync(instance)).join();
			Integer effects = jdbc.queryForObject("SELECT COUNT(*) FROM " + EFFECTS, Integer.class);
			Integer distinctEffects = jdbc.queryForObject("SELECT COUNT(DISTINCT message_id) FROM " + EFFECTS,
					Integer.class);
			return new Outcome(effects, distinctEffects, duplicates.get());
		}
	}

	/**
	 * What the consumer did.
	 *
	 * @param effects effect rows written
	 * @param distinctEffects distinct message ids among them
	 * @param duplicatesSkipped messages the inbox skipped as already processed
	 */
	record Outcome(int effects, int distinctEffects, int duplicatesSkipped) {
	}

}
