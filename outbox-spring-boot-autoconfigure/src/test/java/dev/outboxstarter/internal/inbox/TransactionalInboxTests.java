package dev.outboxstarter.internal.inbox;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.outboxstarter.Inbox;
import dev.outboxstarter.MissingMessageIdException;
import dev.outboxstarter.internal.housekeeping.InboxCleanup;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.schema.FlywayOutboxSchemaInitializer;
import dev.outboxstarter.internal.schema.MigrationScript;
import dev.outboxstarter.internal.schema.ScriptOutboxSchemaInitializer;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.awaitility.Awaitility;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The inbox on real PostgreSQL, MariaDB and H2: the insert decides, also between two transactions that
 * process the same message at the same time; a failure records nothing; messages without an id are
 * refused or processed as configured; expired ids are deleted in batches.
 */
public class TransactionalInboxTests {

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
	void idsThatDifferOnlyInCaseAreDifferentMessages(TestDatabase database) {
		Fixture fixture = Fixture.prepare(database, false);
		assertThat(fixture.process("aB3", () -> fixture.effect("aB3"))).isTrue();
		assertThat(fixture.process("Ab3", () -> fixture.effect("Ab3"))).as("Ab3 after aB3 is a new message").isTrue();
		assertThat(fixture.process("Ab3", () -> fixture.effect("Ab3"))).as("a real duplicate").isFalse();
		assertThat(fixture.effects("aB3")).isEqualTo(1);
		assertThat(fixture.effects("Ab3")).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void idsThatDifferOnlyInTrailingSpacesAreDifferentMessages(TestDatabase database) {
		Fixture fixture = Fixture.prepare(database, false);
		assertThat(fixture.process("id-1 ", () -> fixture.effect("id-1 "))).isTrue();
		assertThat(fixture.process("id-1", () -> fixture.effect("id-1"))).as("id-1 after 'id-1 ' is a new message")
			.isTrue();
		assertThat(fixture.process("id-1 ", () -> fixture.effect("id-1 "))).as("a real duplicate").isFalse();
		assertThat(fixture.jdbc.queryForList("SELECT message_id FROM inbox_store_effect", String.class))
			.containsExactlyInAnyOrder("id-1 ", "id-1");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void idsThatDifferOnlyInCharactersOutsideAsciiAreDifferentMessages(TestDatabase database) {
		Fixture fixture = Fixture.prepare(database, false);
		assertThat(fixture.process("caf\u00e9-1", () -> fixture.effect("caf\u00e9-1"))).isTrue();
		assertThat(fixture.process("caf\u00e8-1", () -> fixture.effect("caf\u00e8-1"))).as("another accent").isTrue();
		assertThat(fixture.process("caf\u00e9-1", () -> fixture.effect("caf\u00e9-1"))).as("a real duplicate")
			.isFalse();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void anInsertThatFailsForAnotherReasonThanADuplicateFailsLoudly(TestDatabase database) {
		Fixture fixture = Fixture.prepare(database, false);
		String longest = "x".repeat(InboxStore.MAX_BYTES);
		assertThat(fixture.store.insertIfAbsent("billing", "", longest)).isTrue();
		assertThatExceptionOfType(DataIntegrityViolationException.class)
			.as("an id longer than the column, which shares its first 255 characters with one processed")
			.isThrownBy(() -> fixture.store.insertIfAbsent("billing", "", longest + "y"));
		assertThatExceptionOfType(DataIntegrityViolationException.class).as("no id")
			.isThrownBy(() -> fixture.store.insertIfAbsent("billing", "", null));
		assertThatExceptionOfType(DataIntegrityViolationException.class).as("no source")
			.isThrownBy(() -> fixture.store.insertIfAbsent("billing", null, "m-1"));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void theSameIdFromTwoSourcesIsTwoMessages(TestDatabase database) throws Exception {
		Fixture fixture = Fixture.prepare(database, false);
		assertThat(fixture.inbox.process("billing", "/inventory", "1001", () -> fixture.effect("inventory"))).isTrue();
		assertThat(fixture.inbox.process("billing", "/payments", "1001", () -> fixture.effect("payments")))
			.as("another source's 1001").isTrue();
		assertThat(fixture.inbox.process("billing", "/payments", "1001", () -> fixture.effect("payments")))
			.as("a real duplicate").isFalse();
		assertThat(fixture.inbox.process("billing", "/Payments", "1001", () -> fixture.effect("Payments")))
			.as("sources are compared byte for byte too").isTrue();
		assertThat(fixture.process("1001", () -> fixture.effect("none"))).as("an id without a source").isTrue();
		assertThat(fixture.inbox.process("billing", "", "1001", () -> fixture.effect("none")))
			.as("an empty source is no source").isFalse();
		assertThat(fixture.jdbc.queryForList("SELECT message_id FROM inbox_store_effect", String.class))
			.containsExactlyInAnyOrder("inventory", "payments", "Payments", "none");
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void idsAndSourcesLongerThanTheInboxStoresAreRefusedCountingTheirBytes(TestDatabase database) {
		Fixture fixture = Fixture.prepare(database, false);
		// 128 characters, 256 bytes of UTF-8: MariaDB's binary columns count bytes.
		String accented = "\u00e9".repeat(128);
		assertThatExceptionOfType(MissingMessageIdException.class)
			.isThrownBy(() -> fixture.inbox.process("billing", accented, () -> fixture.effect("id")))
			.withMessage("Consumer 'billing' refused a message whose message id is 256 bytes long in UTF-8, "
					+ "more than the 255 the inbox stores: it cannot be deduplicated");
		assertThatExceptionOfType(MissingMessageIdException.class)
			.isThrownBy(() -> fixture.inbox.process("billing", accented, "1001", () -> fixture.effect("source")))
			.withMessageContaining("whose source is 256 bytes long in UTF-8");
		String longest = "\u00e9".repeat(127) + "x";
		assertThat(fixture.process(longest, () -> fixture.effect("longest"))).isTrue();
		assertThat(fixture.process(longest, () -> fixture.effect("longest"))).isFalse();
		assertThat(fixture.effects("longest")).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void theScriptsUpgradeAnInboxTableOfTheFirstVersionKeepingTheIdsItHolds(TestDatabase database) throws Exception {
		DataSource dataSource = OutboxTestTable.dataSource(database);
		DatabaseVendor vendor = DatabaseVendor.of(dataSource);
		database.dropTable(TABLE);
		// The first version's table, created by its script alone.
		try (Connection connection = dataSource.getConnection()) {
			ScriptUtils.executeSqlScript(connection, new ByteArrayResource(
					MigrationScript.at(vendor.inboxMigrationLocation(), TABLE, getClass().getClassLoader())
						.get(0)
						.sql()
						.getBytes(StandardCharsets.UTF_8)));
		}
		insertFirstVersionRows(new JdbcTemplate(dataSource));
		new ScriptOutboxSchemaInitializer(dataSource, vendor, vendor.inboxMigrationLocation(), TABLE)
			.afterPropertiesSet();

		assertKeptAndExact(Fixture.on(dataSource, false));
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void flywayUpgradesAnInboxTableOfTheFirstVersionKeepingTheIdsItHolds(TestDatabase database) throws Exception {
		DataSource dataSource = OutboxTestTable.dataSource(database);
		DatabaseVendor vendor = DatabaseVendor.of(dataSource);
		database.dropTable(TABLE);
		Flyway.configure(getClass().getClassLoader())
			.dataSource(dataSource)
			.locations(vendor.inboxMigrationLocation())
			.table(TABLE + "_schema_history")
			.placeholders(Map.of("table", TABLE))
			.baselineOnMigrate(true)
			.baselineVersion("0")
			.target("1")
			.load()
			.migrate();
		insertFirstVersionRows(new JdbcTemplate(dataSource));

		new FlywayOutboxSchemaInitializer(dataSource, vendor.inboxMigrationLocation(), TABLE).afterPropertiesSet();

		assertKeptAndExact(Fixture.on(dataSource, false));
	}

	private static void insertFirstVersionRows(JdbcTemplate jdbc) {
		for (String id : List.of("m-1", "Ab3")) {
			jdbc.update("INSERT INTO " + TABLE + " (consumer, message_id, processed_at) VALUES ('billing', ?, "
					+ "CURRENT_TIMESTAMP)", id);
		}
	}

	private static void assertKeptAndExact(Fixture fixture) throws Exception {
		assertThat(fixture.process("m-1", () -> fixture.effect("m-1"))).as("processed before the upgrade").isFalse();
		assertThat(fixture.process("Ab3", () -> fixture.effect("Ab3"))).as("processed before the upgrade").isFalse();
		assertThat(fixture.process("aB3", () -> fixture.effect("aB3"))).as("Ab3's other case").isTrue();
		assertThat(fixture.inbox.process("billing", "/inventory", "m-1", () -> fixture.effect("sourced")))
			.as("an id kept from before has no source").isTrue();
		assertThat(fixture.jdbc.queryForList("SELECT message_id FROM inbox_store_effect", String.class))
			.containsExactlyInAnyOrder("aB3", "sourced");
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
			.withMessageContaining("300 bytes long");
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
			return on(dataSource, processMissingIds);
		}

		/** An inbox on the table as it is, with an empty effect table. */
		static Fixture on(DataSource dataSource, boolean processMissingIds) {
			DatabaseVendor vendor = DatabaseVendor.of(dataSource);
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

		/** Compared here, not in SQL: MariaDB's default collation would count Ab3 as aB3. */
		int effects(String id) {
			return (int) this.jdbc.queryForList("SELECT message_id FROM inbox_store_effect", String.class)
				.stream()
				.filter(id::equals)
				.count();
		}

	}

}
