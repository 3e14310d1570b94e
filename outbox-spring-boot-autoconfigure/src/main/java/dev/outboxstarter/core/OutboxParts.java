package dev.outboxstarter.core;

import java.util.List;

import javax.sql.DataSource;

import dev.outboxstarter.core.OutboxProperties.Cleanup;
import dev.outboxstarter.core.OutboxProperties.Ordering;
import dev.outboxstarter.core.OutboxProperties.RelayMode;
import dev.outboxstarter.internal.delivery.BatchDelivery;
import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.internal.delivery.Outages;
import dev.outboxstarter.internal.delivery.OutboxRelay;
import dev.outboxstarter.internal.delivery.RetryPolicy;
import dev.outboxstarter.internal.housekeeping.BacklogMonitor;
import dev.outboxstarter.internal.housekeeping.OutboxCleanup;
import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.internal.routing.OutboxTransports;
import dev.outboxstarter.internal.schema.OutboxSchemaInitializer;
import dev.outboxstarter.internal.store.ClaimIdleLimit;
import dev.outboxstarter.internal.store.OutboxStatements;
import dev.outboxstarter.internal.store.OutboxStatements.KeyOrdering;
import dev.outboxstarter.internal.store.OutboxStatements.PublishedRows;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.OutboxStore.Relaying;
import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerBuilder;
import org.springframework.core.io.ResourceLoader;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The parts of one data source's outbox, made from the {@code outbox.*} settings: the same for the
 * primary data source's outbox, whose parts are beans, and for the outboxes of the others
 * ({@link DataSourceOutboxes}).
 */
final class OutboxParts {

	private OutboxParts() {
	}

	static OutboxStore store(DataSource dataSource, String table, OutboxProperties properties, JsonMapper json) {
		return store(dataSource, DatabaseVendor.of(dataSource), table, properties, json);
	}

	static OutboxStore store(DataSource dataSource, DatabaseVendor vendor, String table, OutboxProperties properties,
			JsonMapper json) {
		return new OutboxStore(dataSource, vendor, statements(vendor, table, properties), json,
				(properties.getRelay().getMode() == RelayMode.LOG) ? Relaying.FROM_LOG : Relaying.POLLED,
				ClaimIdleLimit.forPublishTimeout(properties.getPublishTimeout()));
	}

	static StoredEvents storedEvents(DataSource dataSource, OutboxStore store, String table,
			OutboxProperties properties) {
		return new StoredEvents(dataSource, store.vendor(), statements(store.vendor(), table, properties));
	}

	private static OutboxStatements statements(DatabaseVendor vendor, String table, OutboxProperties properties) {
		KeyOrdering keyOrdering = (properties.getOrdering() != Ordering.PER_KEY) ? KeyOrdering.NONE
				: properties.isDeadEventBlocksKey() ? KeyOrdering.PER_KEY_DEAD_BLOCKS : KeyOrdering.PER_KEY;
		Cleanup cleanup = properties.getCleanup();
		PublishedRows publishedRows = (cleanup.isEnabled() && cleanup.getPublishedRetention().isZero())
				? PublishedRows.DELETED : PublishedRows.KEPT;
		return OutboxStatements.load(vendor, table, keyOrdering, publishedRows);
	}

	static OutboxSchemaInitializer schemaInitializer(DataSource dataSource, OutboxStore store, String table,
			OutboxProperties properties, ResourceLoader resourceLoader) {
		return SchemaInitializers.forTable(properties.getSchema().getMode(), dataSource, store.vendor(),
				store.vendor().migrationLocation(), "outbox", table, resourceLoader);
	}

	static BatchDelivery delivery(OutboxStore store, TransactionTemplate transactions, OutboxProperties properties,
			OutboxTransports transports, RetryPolicy retryPolicy, Outages outages,
			List<OutboxDeliveryListener> listeners) {
		return new BatchDelivery(store, transports.byName(), retryPolicy, properties.getPublishTimeout(),
				properties.getOrdering() == Ordering.PER_KEY, transactions, listeners, outages);
	}

	static OutboxCleanup cleanup(StoredEvents storedEvents, TransactionTemplate transactions,
			OutboxProperties properties, ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers, String threadName) {
		Cleanup cleanup = properties.getCleanup();
		return new OutboxCleanup(storedEvents, transactions,
				cleanup.getPublishedRetention(), cleanup.getDeadRetention(), cleanup.getBatchSize(),
				cleanup.getInterval(), OutboxThreads.named(schedulers, threadName));
	}

	static FastPathDispatcher fastPath(BatchDelivery delivery, OutboxProperties properties,
			ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers, String threadName) {
		OutboxProperties.FastPath fastPath = properties.getFastPath();
		return new FastPathDispatcher(delivery, fastPath.getQueueCapacity(), fastPath.getBatchSize(),
				fastPath.getThreads(), properties.getShutdownTimeout(), OutboxThreads.named(schedulers, threadName));
	}

	static BacklogMonitor backlog(StoredEvents storedEvents, OutboxProperties properties,
			ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers, String threadName) {
		return new BacklogMonitor(storedEvents, properties.getBacklog().getRefreshInterval(),
				OutboxThreads.named(schedulers, threadName));
	}

	static OutboxRelay relay(BatchDelivery delivery, OutboxProperties properties,
			ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers, String threadName) {
		OutboxProperties.Relay relay = properties.getRelay();
		return new OutboxRelay(delivery, relay.getBatchSize(), relay.getPollInterval(), properties.getShutdownTimeout(),
				OutboxThreads.named(schedulers, threadName));
	}

}
