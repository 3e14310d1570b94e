package dev.outboxstarter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxTenants;
import dev.outboxstarter.TenantOutbox;
import dev.outboxstarter.internal.capture.CaptureTarget;
import dev.outboxstarter.internal.capture.TenantTargets;
import dev.outboxstarter.internal.delivery.BatchDelivery;
import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.internal.delivery.RelayedTenants;
import dev.outboxstarter.internal.delivery.TenantRelay;
import dev.outboxstarter.internal.housekeeping.OutboxCleanup;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.jdbc.TableName;
import dev.outboxstarter.internal.operations.TenantOutboxesView;
import dev.outboxstarter.internal.schema.SchemaScope;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.RelayHandOff;
import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.TenantsReading;
import dev.outboxstarter.spi.CommittedEventsListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outboxes of the application's tenants ({@link OutboxTenants}). Capture writes the events of a
 * tenant's transactions to the tenant's table, the primary outbox's fast path publishes them, and one
 * {@link TenantRelay} relays every tenant's table on a fixed number of threads, cleaning it up between
 * its batches.
 * <p>
 * A tenant's table is made ready (created or migrated) outside any business transaction: at start for
 * the tenants listed then, and by the relay for a tenant listed later, before its first batch. Capture
 * never makes it: it would run the migrations on a second connection while the business transaction
 * holds the first, and on PostgreSQL their {@code CREATE INDEX CONCURRENTLY} waits for every transaction
 * that holds a snapshot, that business transaction among them, until the lock timeout fails it.
 */
final class TenantOutboxes
		implements TenantTargets, RelayedTenants, TenantOutboxesView, SmartInitializingSingleton, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(TenantOutboxes.class);

	private final OutboxTenants tenants;

	private final DataSource primary;

	private final DatabaseVendor primaryVendor;

	/** The primary data source's transactions, whose isolation the tenants' transactions take. */
	private final TransactionTemplate primaryTransactions;

	private final OutboxProperties properties;

	private final DataSourceOutboxes.Dependencies dependencies;

	private final @Nullable FastPathDispatcher fastPath;

	private final TenantRelay relay;

	private final Map<String, Tenant> ready = new ConcurrentHashMap<>();

	/** Locks the first look at a tenant, so that its table is made ready once. */
	private final Map<String, Object> firstLooks = new ConcurrentHashMap<>();

	/** The tenants the last round was given, by id. */
	private volatile Map<String, TenantOutbox> listed = Map.of();

	private volatile boolean running;

	/**
	 * Creates the tenants' outboxes.
	 * @param tenants the application's tenants
	 * @param primary the primary data source, whose transactions the tenants' transactions are
	 * @param primaryVendor its database
	 * @param properties the outbox settings
	 * @param dependencies what the tenants' outboxes share with the primary one
	 * @param fastPath the primary outbox's fast path, which publishes the tenants' events too, or
	 * {@code null} without one
	 */
	TenantOutboxes(OutboxTenants tenants, DataSource primary, DatabaseVendor primaryVendor,
			OutboxProperties properties, DataSourceOutboxes.Dependencies dependencies,
			@Nullable FastPathDispatcher fastPath) {
		this.tenants = tenants;
		this.primary = primary;
		this.primaryVendor = primaryVendor;
		this.primaryTransactions = OutboxTransactions.readCommitted(primary);
		this.properties = properties;
		this.dependencies = dependencies;
		this.fastPath = fastPath;
		OutboxProperties.Relay relay = properties.getRelay();
		this.relay = new TenantRelay(this, relay.getBatchSize(), relay.getPollInterval(),
				properties.getTenants().getRelayThreads(), properties.getTenants().getFailureBackoff(),
				properties.getShutdownTimeout(), OutboxThreads.named(dependencies.schedulers(), "outbox-tenant-relay"));
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.dependencies.captureBuffers().useTenants(this);
		prepareListed();
	}

	/**
	 * Makes the tables of the tenants listed now ready before the application's work begins, as the
	 * primary outbox's table is. A tenant whose table cannot be made ready now is left to the relay,
	 * which tries it again after its failure backoff.
	 */
	private void prepareListed() {
		Collection<String> listed;
		try {
			listed = tenants();
		}
		catch (RuntimeException ex) {
			logger.warn("The outbox's tenants could not be listed at start; the relay makes their tables ready", ex);
			return;
		}
		for (String tenant : listed) {
			try {
				tenant(tenant).makeTableReady();
			}
			catch (RuntimeException ex) {
				logger.warn("The outbox table of the tenant '" + tenant + "' could not be made ready at start; the "
						+ "relay tries it again", ex);
			}
		}
	}

	@Override
	public @Nullable CaptureTarget current() {
		String tenant = this.tenants.currentTenant();
		return (tenant != null) ? tenant(tenant).target() : null;
	}

	@Override
	public Collection<String> tenants() {
		Map<String, TenantOutbox> listed = new LinkedHashMap<>();
		this.tenants.tenants().forEach((outbox) -> listed.put(outbox.tenant(), outbox));
		this.listed = listed;
		return listed.keySet();
	}

	@Override
	public BatchDelivery delivery(String tenant) {
		Tenant ready = tenant(tenant);
		ready.makeTableReady();
		return ready.delivery();
	}

	@Override
	public void tidy(String tenant) {
		tenant(tenant).tidy();
	}

	@Override
	public TenantsReading reading() {
		return new TenantsReading(this.relay.tenantCount(), this.relay.failingTenants(),
				this.relay.isRunning() ? this.relay.lastRound() : null);
	}

	@Override
	public BacklogReading readBacklog(String tenant) {
		if (!this.ready.containsKey(tenant) && !this.listed.containsKey(tenant)) {
			tenants();
			if (!this.listed.containsKey(tenant)) {
				throw new IllegalArgumentException("No tenant '" + tenant + "' among the " + this.listed.size()
						+ " tenants of the OutboxTenants bean");
			}
		}
		Tenant ready = tenant(tenant);
		ready.makeTableReady();
		return ready.storedEvents().readBacklog();
	}

	/**
	 * The relay of the tenants' outboxes.
	 * @return the relay
	 */
	TenantRelay relay() {
		return this.relay;
	}

	/**
	 * The deliveries of the tenants seen so far.
	 * @return what publishes their rows
	 */
	List<BatchDelivery> deliveries() {
		return this.ready.values().stream().map(Tenant::delivery).toList();
	}

	/**
	 * The tables of the tenants seen so far.
	 * @return their rows
	 */
	List<StoredEvents> tables() {
		return this.ready.values().stream().map(Tenant::storedEvents).toList();
	}

	/**
	 * A tenant's outbox, made without a connection the first time it is asked for; its table may not be
	 * ready yet.
	 */
	private Tenant tenant(String id) {
		Tenant tenant = this.ready.get(id);
		if (tenant != null) {
			return tenant;
		}
		synchronized (this.firstLooks.computeIfAbsent(id, (key) -> new Object())) {
			tenant = this.ready.get(id);
			if (tenant == null) {
				tenant = create(outboxOf(id));
				this.ready.put(id, tenant);
			}
			return tenant;
		}
	}

	private TenantOutbox outboxOf(String id) {
		TenantOutbox outbox = this.listed.get(id);
		if (outbox == null) {
			tenants();
			outbox = this.listed.get(id);
		}
		if (outbox == null) {
			throw new OutboxCaptureException("The current tenant '" + id + "' is not among the tenants of the "
					+ "OutboxTenants bean (" + this.listed.size() + " tenants), so its events have no outbox: list it in "
					+ "OutboxTenants.tenants(), or make currentTenant() return an id that is listed");
		}
		return outbox;
	}

	/**
	 * Makes a tenant's parts. The tenants' databases are of the primary data source's kind, so that
	 * making them needs no connection: capture makes them inside a business transaction.
	 */
	private Tenant create(TenantOutbox outbox) {
		String tableName = this.properties.getTableName();
		String table = TableName.inSchema(outbox.schema(), tableName);
		DataSource dataSource = outbox.dataSource();
		DatabaseVendor vendor = this.primaryVendor;
		DataSourceOutboxes.Dependencies shared = this.dependencies;
		OutboxStore store = OutboxParts.store(dataSource, vendor, table, this.properties, shared.json());
		OutboxStore captureStore = (dataSource == this.primary) ? store
				: OutboxParts.store(this.primary, this.primaryVendor, table, this.properties, shared.json());
		TransactionTemplate transactions = (dataSource == this.primary) ? this.primaryTransactions
				: OutboxTransactions.readCommittedLike(dataSource, this.primaryTransactions);
		BatchDelivery delivery = OutboxParts.delivery(store, transactions, this.properties, shared.transports(),
				shared.retryPolicy(), shared.outages(), shared.deliveryListeners());
		List<CommittedEventsListener> committedListeners = new ArrayList<>();
		FastPathDispatcher fastPath = this.fastPath;
		RelayHandOff relayHandOff = RelayHandOff.IMMEDIATE;
		if (fastPath != null) {
			committedListeners.add((events) -> fastPath.committed(delivery, events));
			relayHandOff = new RelayHandOff(this.properties.getFastPath().getGracePeriod());
		}
		committedListeners.addAll(shared.committedListeners());
		CaptureTarget target = new CaptureTarget("tenant '" + outbox.tenant() + "'", this.primary, captureStore,
				relayHandOff, committedListeners);
		StoredEvents storedEvents = OutboxParts.storedEvents(dataSource, store, table, this.properties);
		OutboxCleanup cleanup = this.properties.getCleanup().isEnabled() ? OutboxParts.cleanup(storedEvents,
				transactions, this.properties, shared.schedulers(), "outbox-tenant-cleanup") : null;
		return new Tenant(target, delivery, storedEvents, cleanup, this.properties.getCleanup().getInterval(),
				() -> makeTable(outbox, vendor, tableName));
	}

	private void makeTable(TenantOutbox outbox, DatabaseVendor vendor, String table) {
		String schema = outbox.schema();
		if (schema == null) {
			makeTable(outbox.dataSource(), vendor, table);
		}
		else {
			SchemaScope.run(outbox.dataSource(), vendor, schema, (inSchema) -> makeTable(inSchema, vendor, table));
		}
	}

	private void makeTable(DataSource dataSource, DatabaseVendor vendor, String table) {
		OutboxStore store = OutboxParts.store(dataSource, vendor, table, this.properties, this.dependencies.json());
		OutboxParts.schemaInitializer(dataSource, store, table, this.properties, this.dependencies.resourceLoader())
			.afterPropertiesSet();
	}

	@Override
	public void start() {
		this.running = true;
		if (this.properties.getRelay().isEnabled()) {
			this.relay.start();
		}
	}

	@Override
	public void stop() {
		this.running = false;
		if (this.relay.isRunning()) {
			this.relay.stop();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * A tenant's outbox once it is ready.
	 */
	private static final class Tenant {

		private final CaptureTarget target;

		private final BatchDelivery delivery;

		private final StoredEvents storedEvents;

		private final @Nullable OutboxCleanup cleanup;

		private final long cleanupInterval;

		private final Runnable tableMaker;

		private volatile boolean tableReady;

		private volatile long cleanedAt;

		Tenant(CaptureTarget target, BatchDelivery delivery, StoredEvents storedEvents,
				@Nullable OutboxCleanup cleanup, Duration cleanupInterval, Runnable tableMaker) {
			this.target = target;
			this.delivery = delivery;
			this.storedEvents = storedEvents;
			this.cleanup = cleanup;
			this.cleanupInterval = cleanupInterval.toNanos();
			this.tableMaker = tableMaker;
			this.cleanedAt = System.nanoTime();
		}

		/**
		 * Creates or migrates the tenant's table, once; never from a business transaction.
		 */
		void makeTableReady() {
			if (!this.tableReady) {
				synchronized (this) {
					if (!this.tableReady) {
						this.tableMaker.run();
						this.tableReady = true;
					}
				}
			}
		}

		CaptureTarget target() {
			return this.target;
		}

		BatchDelivery delivery() {
			return this.delivery;
		}

		StoredEvents storedEvents() {
			return this.storedEvents;
		}

		void tidy() {
			OutboxCleanup cleanup = this.cleanup;
			long now = System.nanoTime();
			if (cleanup != null && now - this.cleanedAt >= this.cleanupInterval) {
				this.cleanedAt = now;
				cleanup.clean();
			}
		}

	}

}
