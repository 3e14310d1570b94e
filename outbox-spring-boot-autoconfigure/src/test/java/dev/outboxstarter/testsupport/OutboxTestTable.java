package dev.outboxstarter.testsupport;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import javax.sql.DataSource;

import dev.outboxstarter.internal.delivery.BatchDelivery;
import dev.outboxstarter.internal.delivery.Outages;
import dev.outboxstarter.internal.delivery.RetryPolicy;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.schema.FlywayOutboxSchemaInitializer;
import dev.outboxstarter.internal.store.ClaimedBatch;
import dev.outboxstarter.internal.store.ClaimedEvent;
import dev.outboxstarter.internal.store.OutboxStatements;
import dev.outboxstarter.internal.store.OutboxStatements.KeyOrdering;
import dev.outboxstarter.internal.store.OutboxStatements.PublishedRows;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.OutboxStore.Relaying;
import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.PublishPath;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One outbox table on one real database, built the way the auto-configuration builds it: vendor
 * detection, statements for the table, the store, Flyway migration, and read-committed transactions.
 * The first use of a table in a test run drops and migrates it; later uses empty it.
 */
public final class OutboxTestTable {

	private static final Set<String> migrated = ConcurrentHashMap.newKeySet();

	private final TestDatabase database;

	private final String table;

	private final DataSource dataSource;

	private final DatabaseVendor vendor;

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	private OutboxTestTable(TestDatabase database, String table) {
		this.database = database;
		this.table = table;
		this.dataSource = dataSource(database);
		this.vendor = DatabaseVendor.of(this.dataSource);
		this.jdbc = new JdbcTemplate(this.dataSource);
		this.transactions = transactions(this.dataSource);
	}

	/**
	 * A migrated, empty outbox table.
	 * @param database the database
	 * @param table the table name, distinct per test class
	 * @return the table
	 */
	public static OutboxTestTable prepare(TestDatabase database, String table) {
		OutboxTestTable outbox = new OutboxTestTable(database, table);
		if (migrated.add(database + "/" + table)) {
			database.dropTable(table);
			new FlywayOutboxSchemaInitializer(outbox.dataSource, outbox.vendor.migrationLocation(), table).afterPropertiesSet();
		}
		else {
			outbox.jdbc.update("DELETE FROM " + table);
		}
		return outbox;
	}

	/**
	 * A data source with a new connection each time. MariaDB sessions run in a zone far from UTC, so
	 * anything that used the session's local time instead of UTC would show.
	 * @param database the database
	 * @return the data source
	 */
	public static DataSource dataSource(TestDatabase database) {
		DriverManagerDataSource dataSource = new DriverManagerDataSource(database.url(), database.username(),
				database.password());
		if (database == TestDatabase.MARIADB) {
			Properties properties = new Properties();
			properties.setProperty("sessionVariables", "time_zone='+05:00'");
			dataSource.setConnectionProperties(properties);
		}
		return dataSource;
	}

	/**
	 * Transactions as the application runs its claims: read committed on the outbox data source.
	 * @param dataSource the data source
	 * @return the template
	 */
	public static TransactionTemplate transactions(DataSource dataSource) {
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		return transactions;
	}

	public TestDatabase database() {
		return this.database;
	}

	public String table() {
		return this.table;
	}

	public DataSource dataSource() {
		return this.dataSource;
	}

	public DatabaseVendor vendor() {
		return this.vendor;
	}

	public JdbcTemplate jdbc() {
		return this.jdbc;
	}

	public TransactionTemplate transactions() {
		return this.transactions;
	}

	/**
	 * A store with per-key ordering, as with {@code outbox.ordering=per-key}.
	 * @return the store
	 */
	public OutboxStore store() {
		return store(KeyOrdering.PER_KEY);
	}

	/**
	 * A store on this table.
	 * @param keyOrdering which earlier rows of a row's key hold it back from claims
	 * @return the store
	 */
	public OutboxStore store(KeyOrdering keyOrdering) {
		return store(this.dataSource, keyOrdering);
	}

	/**
	 * A store on this table through another data source (e.g. one that counts statements).
	 * @param dataSource the data source
	 * @param keyOrdering which earlier rows of a row's key hold it back from claims
	 * @return the store
	 */
	public OutboxStore store(DataSource dataSource, KeyOrdering keyOrdering) {
		return new OutboxStore(dataSource, this.vendor, statements(keyOrdering), new JsonMapper(), Relaying.POLLED,
				null);
	}

	/**
	 * A store on this table whose claims the database ends once their connection has been idle for a
	 * while.
	 * @param dataSource the data source
	 * @param claimIdleLimit how long a claim's connection may stay idle
	 * @return the store
	 */
	public OutboxStore store(DataSource dataSource, Duration claimIdleLimit) {
		return new OutboxStore(dataSource, this.vendor, statements(KeyOrdering.PER_KEY), new JsonMapper(),
				Relaying.POLLED, claimIdleLimit);
	}

	/**
	 * The rows of this table as operations and housekeeping see them.
	 * @return the stored events
	 */
	public StoredEvents storedEvents() {
		return new StoredEvents(this.dataSource, this.vendor, statements(KeyOrdering.PER_KEY));
	}

	/**
	 * Batch delivery from this table as the auto-configuration builds it by default: per-key ordering,
	 * a 5 s publish timeout, ten attempts from a minute's backoff, no listeners.
	 * @param transport the only transport
	 * @return the delivery
	 */
	public BatchDelivery delivery(OutboxTransport transport) {
		RetryPolicy retry = new RetryPolicy(Duration.ofMinutes(1), 2, Duration.ofMinutes(5), 0, 10);
		return new BatchDelivery(store(), Map.of(transport.name(), transport), retry, Duration.ofSeconds(5), true,
				this.transactions, List.of(), new Outages(retry));
	}

	/**
	 * Publishes the due rows of this table once, as a relay's batch of up to 100 rows does, through
	 * {@link #delivery(OutboxTransport)}.
	 * @param transport the only transport
	 * @return what the batch did
	 */
	public DeliveryResult publishDue(OutboxTransport transport) {
		return delivery(transport).deliver(PublishPath.RELAY, (store) -> store.claimDue(100, 0));
	}

	/**
	 * Publishes the due rows of this table, a relay's batch of up to 100 rows per call, through one
	 * delivery kept between calls, so that what one call left in flight the next one knows.
	 * @param transport the only transport
	 * @param publishTimeout the delivery's publish timeout
	 * @param retryDelay how long a failed event waits before it is due again
	 * @return each call publishes one batch
	 */
	public Supplier<DeliveryResult> relay(OutboxTransport transport, Duration publishTimeout, Duration retryDelay) {
		RetryPolicy retry = new RetryPolicy(retryDelay, 1, retryDelay, 0, 10);
		BatchDelivery delivery = new BatchDelivery(store(), Map.of(transport.name(), transport), retry, publishTimeout,
				true, this.transactions, List.of(), new Outages(retry));
		return () -> delivery.deliver(PublishPath.RELAY, (store) -> store.claimDue(100, 0));
	}

	/**
	 * A store on this table with per-key ordering where a DEAD row keeps holding back its key
	 * ({@code outbox.dead-event-blocks-key=true}).
	 * @return the store
	 */
	public OutboxStore deadBlockingStore() {
		return new OutboxStore(this.dataSource, this.vendor, statements(KeyOrdering.PER_KEY_DEAD_BLOCKS),
				new JsonMapper(), Relaying.POLLED, null);
	}

	/**
	 * The statements for this table, which keep published rows.
	 * @param keyOrdering which earlier rows of a row's key hold it back from claims
	 * @return the statements
	 */
	public OutboxStatements statements(KeyOrdering keyOrdering) {
		return OutboxStatements.load(this.vendor, this.table, keyOrdering, PublishedRows.KEPT);
	}

	/**
	 * Claims due rows in a transaction of their own, and commits without marking anything.
	 * @param store the store
	 * @param limit the batch size
	 * @return the ids claimed, in the order returned
	 */
	public List<UUID> claimDueIds(OutboxStore store, int limit) {
		return this.transactions.execute((status) -> ids(store.claimDue(limit, 0)));
	}

	/**
	 * Inserts events in one batch, outside any transaction (auto-commit).
	 * @param store the store
	 * @param delay the delay before they are due
	 * @param events the events
	 * @return their ids
	 */
	public List<UUID> insert(OutboxStore store, Duration delay, CapturedEvent... events) {
		store.insert(List.of(events), delay);
		return List.of(events).stream().map(CapturedEvent::id).toList();
	}

	/**
	 * The ids of claimed rows, in order.
	 * @param claimed the rows
	 * @return their ids
	 */
	public static List<UUID> ids(List<ClaimedEvent> claimed) {
		return claimed.stream().map((event) -> event.message().id()).toList();
	}

	/**
	 * The ids of the rows a claim locked, in order.
	 * @param claimed the claimed batch
	 * @return their ids
	 */
	public static List<UUID> ids(ClaimedBatch claimed) {
		return ids(claimed.events());
	}

	/**
	 * An event for the {@code kafka} transport, topic {@code orders}.
	 * @param key the message key, or {@code null}
	 * @return the event
	 */
	public static CapturedEvent event(@Nullable String key) {
		return event("kafka", "orders", key);
	}

	/**
	 * An event.
	 * @param transport the transport
	 * @param destination the destination
	 * @param key the message key, or {@code null}
	 * @return the event
	 */
	public static CapturedEvent event(String transport, String destination, @Nullable String key) {
		return new CapturedEvent(UUID.randomUUID(), "Order", key, "OrderPlaced", transport, destination, key,
				"{\"key\":\"" + key + "\"}", Map.of());
	}

	/**
	 * Reads a row as stored.
	 * @param id the row id
	 * @return the row
	 */
	public Row row(UUID id) {
		return this.jdbc.queryForObject("SELECT status, attempts, last_error, seq, available_at, created_at, "
				+ "published_at FROM " + this.table + " WHERE id = ?", (rs, index) -> new Row(rs.getString("status"),
						rs.getInt("attempts"), rs.getString("last_error"), rs.getLong("seq"),
						this.vendor.readInstant(rs, "available_at"), this.vendor.readInstant(rs, "created_at"),
						nullableInstant(rs, "published_at")),
				this.vendor.idParameter(id));
	}

	private @Nullable Instant nullableInstant(ResultSet rs, String column) throws SQLException {
		return (rs.getObject(column) != null) ? this.vendor.readInstant(rs, column) : null;
	}

	/**
	 * The current time by the database's clock, as the outbox statements read it.
	 * @return the time
	 */
	public Instant databaseNow() {
		String sql = switch (this.vendor) {
			case POSTGRESQL -> "SELECT clock_timestamp() AS now";
			case MYSQL -> "SELECT UTC_TIMESTAMP(6) AS now";
			case H2 -> "SELECT CURRENT_TIMESTAMP(9) AS now";
		};
		return this.jdbc.queryForObject(sql, (rs, index) -> this.vendor.readInstant(rs, "now"));
	}

	/**
	 * A row as stored.
	 *
	 * @param status the status
	 * @param attempts failed attempts
	 * @param lastError the last error
	 * @param seq the insertion order
	 * @param availableAt when it is due
	 * @param createdAt when it was inserted
	 * @param publishedAt when it was published
	 */
	public record Row(String status, int attempts, @Nullable String lastError, long seq, Instant availableAt,
			Instant createdAt, @Nullable Instant publishedAt) {
	}

	/**
	 * A data source that records the JDBC calls made on its prepared statements.
	 */
	public static final class RecordingDataSource extends DelegatingDataSource {

		private final List<String> calls = new CopyOnWriteArrayList<>();

		private final List<String> preparedStatements = new CopyOnWriteArrayList<>();

		public RecordingDataSource(DataSource target) {
			super(target);
		}

		/**
		 * The calls, e.g. {@code prepareStatement}, {@code addBatch}, {@code executeBatch}.
		 * @return the method names in order
		 */
		public List<String> calls() {
			return this.calls;
		}

		/**
		 * The SQL of the statements prepared.
		 * @return the statements in order
		 */
		public List<String> preparedStatements() {
			return this.preparedStatements;
		}

		@Override
		public Connection getConnection() throws SQLException {
			return recording(Connection.class, super.getConnection());
		}

		@Override
		public Connection getConnection(String username, String password) throws SQLException {
			return recording(Connection.class, super.getConnection(username, password));
		}

		private <T> T recording(Class<T> type, T target) {
			InvocationHandler handler = (proxy, method, args) -> {
				String name = method.getName();
				if (type == PreparedStatement.class && (name.startsWith("execute") || name.equals("addBatch"))) {
					this.calls.add(name);
				}
				Object result;
				try {
					result = method.invoke(target, args);
				}
				catch (InvocationTargetException ex) {
					throw ex.getTargetException();
				}
				if (type == Connection.class && name.equals("prepareStatement")) {
					this.calls.add(name);
					this.preparedStatements.add((String) args[0]);
					return recording(PreparedStatement.class, (PreparedStatement) result);
				}
				return result;
			};
			return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { type }, handler));
		}

	}

}
