package dev.outboxstarter.core;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.outboxstarter.Inbox;
import dev.outboxstarter.MissingMessageIdException;
import dev.outboxstarter.testsupport.TestDatabase;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The inbox on real PostgreSQL, MariaDB and H2: the insert decides, also between two transactions that
 * process the same message at the same time; a failure records nothing; messages without an id are
 * refused or processed as configured; expired ids are deleted in batches.
 */
class TransactionalInboxTests {

	private static final String TABLE = "inbox_store_it";

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void theSameMessageProcessedConcurrentlyByTwoTransactionsHasItsEffectOnce(TestDatabase database) throws Exception {
		Fixture fixture = Fixture.prepare(database, false);
		String id = UUID.randomUUID().toString();
		CountDownLatch firstInside = new CountDownLatch(1);
		CountDownLatch releaseFirst = new CountDownLatch(1);
		CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> fixture.process(id, () -> {
			firstInside.countDown();
			fixture.effect(id);
			await(releaseFirst);
		}));
		await(firstInside);
		// The second transaction's insert has to wait for the first one, which holds the new key.
		CompletableFuture<Boolean> second = CompletableFuture.supplyAsync(() -> fixture.process(id, () -> fixture.effect(id)));
		Awaitility.await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !second.isDone());
		releaseFirst.countDown();

		assertThat(List.of(first.get(10, TimeUnit.SECONDS), second.get(10, TimeUnit.SECONDS)))
			.containsExactlyInAnyOrder(true, false);
		assertThat(fixture.effects(id)).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void aFailingHandlerRecordsNothingSoTheRedeliveryIsProcessed(TestDatabase database) {
		Fixture fixture = Fixture.prepare(database, false);
		String id = UUID.randomUUID().toString();
		assertThatIllegalStateException().isThrownBy(() -> fixture.inbox.process("billing", id, () -> {
			fixture.effect(id);
			throw new IllegalStateException("handler failed");
		})).withMessage("handler failed");
		assertThat(fixture.effects(id)).isZero();

		assertThat(fixture.process(id, () -> fixture.effect(id))).isTrue();
		assertThat(fixture.process(id, () -> fixture.effect(id))).as("a duplicate").isFalse();
		assertThat(fixture.effects(id)).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void messagesWithoutAnIdAreRefusedUnlessConfiguredToBeProcessed(TestDatabase database) throws Exception {
		Fixture refusing = Fixture.prepare(database, false);
		assertThatExceptionOfType(MissingMessageIdException.class)
			.isThrownBy(() -> refusing.inbox.process("billing", null, () -> refusing.effect("none")))
			.withMessageContaining("Consumer 'billing' refused a message without an outbox-message-id header")
			.withMessageContaining("outbox.inbox.missing-message-id=process");
		assertThatExceptionOfType(MissingMessageIdException.class)
			.isThrownBy(() -> refusing.inbox.process("billing", "x".repeat(300), () -> refusing.effect("long")))
			.withMessageContaining("300 characters long");
		assertThat(refusing.effects("none")).isZero();

		Fixture processing = Fixture.prepare(database, true);
		assertThat(processing.inbox.process("billing", null, () -> processing.effect("none"))).isTrue();
		assertThat(processing.inbox.process("billing", null, () -> processing.effect("none"))).isTrue();
		assertThat(processing.effects("none")).as("not deduplicated").isEqualTo(2);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void idsOlderThanTheRetentionAreDeletedInBatches(TestDatabase database) {
		Fixture fixture = Fixture.prepare(database, false);
		for (int i = 0; i < 5; i++) {
			fixture.process("old-" + i, () -> {
			});
		}
		fixture.process("recent", () -> {
		});
		fixture.jdbc.update("UPDATE " + TABLE + " SET processed_at = processed_at - INTERVAL '2' HOUR "
				+ "WHERE message_id LIKE 'old-%'");
		InboxCleanup cleanup = new InboxCleanup(fixture.store, OutboxTestTable.transactions(fixture.dataSource),
				Duration.ofHours(1), 2, Duration.ofHours(1), SimpleAsyncTaskScheduler::new);

		assertThat(cleanup.clean()).isEqualTo(5);
		assertThat(fixture.jdbc.queryForList("SELECT message_id FROM " + TABLE, String.class)).containsExactly("recent");
	}

	private static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private record Fixture(DataSource dataSource, JdbcTemplate jdbc, InboxStore store, TransactionalInbox inbox) {

		static Fixture prepare(TestDatabase database, boolean processMissingIds) {
			DataSource dataSource = OutboxTestTable.dataSource(database);
			DatabaseVendor vendor = DatabaseVendor.of(dataSource);
			database.dropTable(TABLE);
			new FlywayOutboxSchemaInitializer(dataSource, vendor.inboxMigrationLocation(), TABLE).afterPropertiesSet();
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("DROP TABLE IF EXISTS inbox_store_effect");
			jdbc.execute("CREATE TABLE inbox_store_effect (message_id VARCHAR(64))");
			InboxStore store = new InboxStore(dataSource, InboxStatements.load(vendor, TABLE));
			TransactionalInbox inbox = new TransactionalInbox(store, new DataSourceTransactionManager(dataSource),
					dataSource, processMissingIds, List.of());
			return new Fixture(dataSource, jdbc, store, inbox);
		}

		boolean process(String id, Inbox.InboxHandler handler) {
			try {
				return this.inbox.process("billing", id, handler);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		void effect(String id) {
			this.jdbc.update("INSERT INTO inbox_store_effect VALUES (?)", id);
		}

		int effects(String id) {
			return this.jdbc.queryForObject("SELECT COUNT(*) FROM inbox_store_effect WHERE message_id = ?",
					Integer.class, id);
		}

	}

}
