package dev.outboxstarter.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.core.OutboxProperties.DataSourceOutbox;
import dev.outboxstarter.core.OutboxProperties.RelayMode;
import dev.outboxstarter.internal.capture.CaptureBuffers;
import dev.outboxstarter.internal.capture.CaptureTarget;
import dev.outboxstarter.internal.capture.OutboxTransactionManagers;
import dev.outboxstarter.internal.delivery.BatchDelivery;
import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.internal.delivery.Outages;
import dev.outboxstarter.internal.delivery.OutboxRelay;
import dev.outboxstarter.internal.delivery.RetryPolicy;
import dev.outboxstarter.internal.housekeeping.BacklogMonitor;
import dev.outboxstarter.internal.operations.DefaultOutboxAdministration.AdministeredTable;
import dev.outboxstarter.internal.operations.DefaultOutboxMonitoring;
import dev.outboxstarter.internal.routing.OutboxTransports;
import dev.outboxstarter.internal.store.EventSearch;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.RelayHandOff;
import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.spi.CommittedEventsListener;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerBuilder;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.io.ResourceLoader;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outboxes of the data sources other than the primary one: each data source that a transaction
 * manager of the context runs transactions on, unless {@code outbox.datasources.<name>.enabled} says
 * otherwise, gets its own table, delivery, fast path, relay and cleanup, made like the primary one's
 * from the {@code outbox.*} settings, and capture writes the events of its transactions there.
 * <p>
 * They are found once every singleton exists (or when they are first asked for after that), since
 * which data source a transaction manager runs on is known only from the transaction manager itself,
 * and started and stopped with the context.
 */
final class DataSourceOutboxes implements SmartInitializingSingleton, SmartLifecycle {

	private static final Log logger = LogFactory.getLog(DataSourceOutboxes.class);

	private final ListableBeanFactory beanFactory;

	private final DataSource primary;

	private final OutboxProperties properties;

	private final Dependencies dependencies;

	private final List<SmartLifecycle> parts = new ArrayList<>();

	private final Map<String, OtherOutbox> outboxes = new LinkedHashMap<>();

	private volatile boolean found;

	private volatile boolean running;

	/**
	 * Creates the outboxes' holder; they are made once every singleton exists.
	 * @param beanFactory where the data sources and transaction managers are found
	 * @param primary the primary data source, whose outbox is made of beans
	 * @param properties the outbox settings
	 * @param dependencies what the outboxes share with the primary one
	 */
	DataSourceOutboxes(ListableBeanFactory beanFactory, DataSource primary, OutboxProperties properties,
			Dependencies dependencies) {
		this.beanFactory = beanFactory;
		this.primary = primary;
		this.properties = properties;
		this.dependencies = dependencies;
	}

	@Override
	public void afterSingletonsInstantiated() {
		outboxes();
	}

	/**
	 * The outboxes of the other data sources, found at the first call.
	 * @return the outboxes by name
	 */
	Map<String, OtherOutbox> outboxes() {
		if (!this.found) {
			synchronized (this.outboxes) {
				if (!this.found) {
					find();
					this.found = true;
				}
			}
		}
		return Collections.unmodifiableMap(this.outboxes);
	}

	/**
	 * The tables of the other outboxes.
	 * @return their rows, as the administration changes them
	 */
	List<AdministeredTable> tables() {
		return outboxes().values().stream().map(OtherOutbox::table).toList();
	}

	/**
	 * The deliveries of the other outboxes.
	 * @return what publishes their rows
	 */
	List<BatchDelivery> deliveries() {
		return outboxes().values().stream().map(OtherOutbox::delivery).toList();
	}

	/**
	 * What the outboxes of the other data sources share with the primary one's.
	 * @return the shared parts
	 */
	Dependencies dependencies() {
		return this.dependencies;
	}

	private void find() {
		Map<String, DataSource> dataSources = this.beanFactory.getBeansOfType(DataSource.class, false, false);
		checkConfigured(dataSources);
		Collection<PlatformTransactionManager> transactionManagers = this.beanFactory
			.getBeansOfType(PlatformTransactionManager.class, false, false)
			.values();
		dataSources.forEach((name, dataSource) -> {
			if (dataSource != this.primary && hasOutbox(name, dataSource, transactionManagers)) {
				add(name, dataSource);
			}
		});
	}

	private void checkConfigured(Map<String, DataSource> dataSources) {
		this.properties.getDatasources().keySet().forEach((name) -> {
			if (!dataSources.containsKey(name)) {
				throw new OutboxConfigurationException("outbox.datasources." + name + " names no DataSource bean "
						+ "(the context has " + String.join(", ", dataSources.keySet()) + ")",
						"Name the DataSource by its bean name, or remove the entry");
			}
			if (dataSources.get(name) == this.primary) {
				throw new OutboxConfigurationException("outbox.datasources." + name + " names the primary "
						+ "DataSource, whose outbox the other outbox.* settings configure",
						"Remove the entry, and set outbox.table-name for the primary DataSource's table");
			}
		});
	}

	private boolean hasOutbox(String name, DataSource dataSource,
			Collection<PlatformTransactionManager> transactionManagers) {
		DataSourceOutbox configured = this.properties.getDatasources().get(name);
		if (configured != null && configured.getEnabled() != null) {
			return configured.getEnabled();
		}
		return transactionManagers.stream().anyMatch((manager) -> OutboxTransactionManagers.runsOn(manager, dataSource));
	}

	private void add(String name, DataSource dataSource) {
		DataSourceOutbox configured = this.properties.getDatasources().get(name);
		String table = (configured != null && configured.getTableName() != null) ? configured.getTableName()
				: this.properties.getTableName();
		Dependencies shared = this.dependencies;
		OutboxStore store = OutboxParts.store(dataSource, table, this.properties, shared.json());
		OutboxParts.schemaInitializer(dataSource, store, table, this.properties, shared.resourceLoader())
			.afterPropertiesSet();
		List<CommittedEventsListener> committedListeners = new ArrayList<>(shared.committedListeners());
		boolean polling = this.properties.getRelay().getMode() == RelayMode.POLLING;
		TransactionTemplate transactions = OutboxTransactions.readCommitted(dataSource);
		BatchDelivery delivery = OutboxParts.delivery(store, transactions, this.properties, shared.transports(),
				shared.retryPolicy(), shared.outages(), shared.deliveryListeners());
		FastPathDispatcher fastPath = (polling && this.properties.getFastPath().isEnabled()) ? OutboxParts
			.fastPath(delivery, this.properties, shared.schedulers(), "outbox-fast-path-" + name) : null;
		RelayHandOff relayHandOff = RelayHandOff.IMMEDIATE;
		if (fastPath != null) {
			committedListeners.add(0, fastPath);
			relayHandOff = new RelayHandOff(this.properties.getFastPath().getGracePeriod());
			this.parts.add(fastPath);
		}
		OutboxRelay relay = (polling && this.properties.getRelay().isEnabled())
				? OutboxParts.relay(delivery, this.properties, shared.schedulers(), "outbox-relay-" + name) : null;
		if (relay != null) {
			this.parts.add(relay);
		}
		StoredEvents storedEvents = OutboxParts.storedEvents(dataSource, store, table, this.properties);
		if (this.properties.getCleanup().isEnabled()) {
			this.parts.add(OutboxParts.cleanup(storedEvents, transactions, this.properties, shared.schedulers(),
					"outbox-cleanup-" + name));
		}
		BacklogMonitor backlog = null;
		if (polling && shared.backlogRead()) {
			backlog = OutboxParts.backlog(storedEvents, this.properties, shared.schedulers(), "outbox-backlog-" + name);
			this.parts.add(backlog);
		}
		BacklogMonitor backlogMonitor = backlog;
		EventSearch search = new EventSearch(dataSource, store.vendor(), table, shared.json());
		OutboxMonitoring monitoring = new DefaultOutboxMonitoring(name, this.properties.getRelay().getMode().value(),
				storedEvents, search, shared.transports(), shared.outages(), () -> relay, () -> fastPath,
				() -> backlogMonitor, Map::of, () -> null);
		AdministeredTable administered = new AdministeredTable(storedEvents, search, store, transactions);
		this.outboxes.put(name, new OtherOutbox(name, table, administered, delivery, monitoring));
		shared.captureBuffers().add(new CaptureTarget(name, dataSource, store, relayHandOff, committedListeners));
		logger.info("The DataSource '" + name + "' has an outbox of its own, the table '" + table + "'");
	}

	@Override
	public void start() {
		outboxes();
		this.parts.forEach(SmartLifecycle::start);
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.parts.forEach(SmartLifecycle::stop);
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * What the outboxes of the other data sources share with the primary one's.
	 *
	 * @param json serializes the rows' headers
	 * @param transports the transports, by name
	 * @param retryPolicy when failed events are tried again
	 * @param outages the destinations paused during an outage, for every outbox alike
	 * @param deliveryListeners told of every delivery
	 * @param committedListeners the application's listeners of committed events, the primary outbox's fast
	 * path not among them
	 * @param captureBuffers where capture finds the outbox of a transaction's data source
	 * @param schedulers the threads of the fast paths, relays, cleanups and backlog monitors
	 * @param resourceLoader finds the schema scripts
	 * @param backlogRead whether the backlog is read, as it is for the primary outbox (for the metrics and
	 * health)
	 */
	record Dependencies(JsonMapper json, OutboxTransports transports, RetryPolicy retryPolicy, Outages outages,
			List<OutboxDeliveryListener> deliveryListeners, List<CommittedEventsListener> committedListeners,
			CaptureBuffers captureBuffers, ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers,
			ResourceLoader resourceLoader, boolean backlogRead) {

	}

	/**
	 * The outbox of a data source other than the primary one.
	 *
	 * @param name its name, the data source's bean name
	 * @param tableName the name of its table
	 * @param table its table, as the administration changes it
	 * @param delivery publishes its rows
	 * @param monitoring what is pending or DEAD in it
	 */
	record OtherOutbox(String name, String tableName, AdministeredTable table, BatchDelivery delivery,
			OutboxMonitoring monitoring) {

	}

}
