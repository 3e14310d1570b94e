package dev.outboxstarter.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxEventRouter;
import dev.outboxstarter.OutboxTenants;
import dev.outboxstarter.core.OutboxProperties.RelayMode;
import dev.outboxstarter.internal.capture.CaptureBuffers;
import dev.outboxstarter.internal.capture.CaptureCommitListenerRegistrar;
import dev.outboxstarter.internal.capture.CaptureFlushHook;
import dev.outboxstarter.internal.capture.CaptureTarget;
import dev.outboxstarter.internal.capture.CommitSteps;
import dev.outboxstarter.internal.capture.EventSerializer;
import dev.outboxstarter.internal.capture.OutboxCapture;
import dev.outboxstarter.internal.capture.OutboxEventCaptureListener;
import dev.outboxstarter.internal.capture.OutboxTransactionManagers;
import dev.outboxstarter.internal.capture.TransactionalOutbox;
import dev.outboxstarter.internal.delivery.BatchDelivery;
import dev.outboxstarter.internal.delivery.FastPathDispatcher;
import dev.outboxstarter.internal.delivery.Outages;
import dev.outboxstarter.internal.delivery.OutboxRelay;
import dev.outboxstarter.internal.delivery.RetryPolicy;
import dev.outboxstarter.internal.housekeeping.BacklogMonitor;
import dev.outboxstarter.internal.housekeeping.OutboxCleanup;
import dev.outboxstarter.internal.operations.DefaultOutboxAdministration;
import dev.outboxstarter.internal.operations.DefaultOutboxAdministration.AdministeredTable;
import dev.outboxstarter.internal.operations.DefaultOutboxMonitoring;
import dev.outboxstarter.internal.operations.DefaultOutboxTesting;
import dev.outboxstarter.internal.routing.EventRouting;
import dev.outboxstarter.internal.routing.OutboxTransports;
import dev.outboxstarter.internal.routing.RoutableTransports;
import dev.outboxstarter.internal.routing.RouteDefinition;
import dev.outboxstarter.internal.routing.RouteFormats;
import dev.outboxstarter.internal.routing.RoutePropertyNames;
import dev.outboxstarter.internal.schema.OutboxSchemaInitializer;
import dev.outboxstarter.internal.store.EventSearch;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.internal.store.RelayHandOff;
import dev.outboxstarter.internal.store.StoredDeadEvents;
import dev.outboxstarter.internal.store.StoredEvents;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.OutboxTesting;
import dev.outboxstarter.spi.CommittedEventsListener;
import dev.outboxstarter.spi.EventHeadersContributor;
import dev.outboxstarter.spi.OutboxDeliveryListener;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.spi.OutboxTransportDecorator;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerBuilder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Auto-configuration of the outbox: capture of events into the application's transactions, the
 * table, the fast path and the relay. Transports come from their own auto-configurations.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
		"org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration" })
@ConditionalOnClass({ JdbcTemplate.class, JsonMapper.class })
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBooleanProperty(name = "outbox.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OutboxProperties.class)
@ImportRuntimeHints(OutboxRuntimeHints.class)
public final class OutboxAutoConfiguration {

	@Bean
	OutboxStore outboxStore(DataSource dataSource, OutboxProperties properties, ObjectProvider<JsonMapper> jsonMapper) {
		return OutboxParts.store(dataSource, properties.getTableName(), properties,
				jsonMapper.getIfAvailable(JsonMapper::new));
	}

	@Bean
	StoredEvents outboxStoredEvents(DataSource dataSource, OutboxStore store, OutboxProperties properties) {
		return OutboxParts.storedEvents(dataSource, store, properties.getTableName(), properties);
	}

	@Bean
	EventSearch outboxEventSearch(DataSource dataSource, OutboxStore store, OutboxProperties properties,
			ObjectProvider<JsonMapper> jsonMapper) {
		return new EventSearch(dataSource, store.vendor(), properties.getTableName(),
				jsonMapper.getIfAvailable(JsonMapper::new));
	}

	@Bean
	OutboxSchemaInitializer outboxSchemaInitializer(DataSource dataSource, OutboxStore store,
			OutboxProperties properties, ResourceLoader resourceLoader) {
		return OutboxParts.schemaInitializer(dataSource, store, properties.getTableName(), properties,
				resourceLoader);
	}

	@Bean
	EventRouting outboxEventRouting(OutboxProperties properties, ObjectProvider<OutboxEventRouter> routers,
			OutboxTransports transports, Environment environment) {
		RoutePropertyNames.check(environment);
		Map<String, RouteDefinition> routes = new LinkedHashMap<>();
		properties.getRoutes()
			.forEach((type, route) -> routes.put(type, new RouteDefinition(route.getEventType(), route.getTransport(),
					route.getDestination(), route.getKey(), route.getFormat(), route.getDelay(),
					route.getDelayHoldsKey(), route.getPayloadFormat())));
		RoutableTransports routable = (properties.getRelay().getMode() == RelayMode.LOG)
				? RoutableTransports.forLogRelay(transports.names(), properties.getDefaultTransport())
				: RoutableTransports.all(transports.names(), properties.getDefaultTransport());
		return new EventRouting(routers.orderedStream().toList(), routes, routable,
				RouteFormats.of(properties.getMessageFormat(), properties.getCloudevents().getSource(),
						environment.getProperty("spring.application.name")),
				environment);
	}

	@Bean
	OutboxTransports outboxTransports(ObjectProvider<OutboxTransport> transports,
			ObjectProvider<OutboxTransportDecorator> decorators) {
		return new OutboxTransports(transports.orderedStream().toList(), decorators.orderedStream().toList());
	}

	@Bean
	RetryPolicy outboxRetryPolicy(OutboxProperties properties) {
		OutboxProperties.Retry retry = properties.getRetry();
		return new RetryPolicy(retry.getInitialDelay(), retry.getMultiplier(), retry.getMaxDelay(), retry.getJitter(),
				retry.getMaxAttempts());
	}

	@Bean
	Outages outboxOutages(RetryPolicy retryPolicy) {
		return new Outages(retryPolicy);
	}

	@Bean
	BatchDelivery outboxBatchDelivery(OutboxStore store, DataSource dataSource, OutboxProperties properties,
			OutboxTransports transports, RetryPolicy retryPolicy, Outages outages,
			ObjectProvider<OutboxDeliveryListener> listeners) {
		return OutboxParts.delivery(store, OutboxTransactions.readCommitted(dataSource), properties, transports,
				retryPolicy, outages,
				listeners.orderedStream().toList());
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "outbox.cleanup.enabled", matchIfMissing = true)
	OutboxCleanup outboxCleanup(StoredEvents storedEvents, DataSource dataSource, OutboxProperties properties,
			ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers) {
		return OutboxParts.cleanup(storedEvents, OutboxTransactions.readCommitted(dataSource), properties, schedulers,
				"outbox-cleanup");
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "outbox.fast-path.enabled", matchIfMissing = true)
	@ConditionalOnProperty(name = "outbox.relay.mode", havingValue = "polling", matchIfMissing = true)
	FastPathDispatcher outboxFastPathDispatcher(BatchDelivery delivery, OutboxProperties properties,
			ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers) {
		return OutboxParts.fastPath(delivery, properties, schedulers, "outbox-fast-path");
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "outbox.relay.enabled", matchIfMissing = true)
	@ConditionalOnProperty(name = "outbox.relay.mode", havingValue = "polling", matchIfMissing = true)
	OutboxRelay outboxRelay(BatchDelivery delivery, OutboxProperties properties,
			ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers) {
		return OutboxParts.relay(delivery, properties, schedulers, "outbox-relay");
	}

	/**
	 * Where capture finds the outbox of a transaction's data source: the primary one's, and those of
	 * the other data sources once {@link #outboxDataSourceOutboxes} has made them.
	 */
	@Bean
	CaptureBuffers outboxCaptureBuffers(DataSource dataSource, OutboxStore store, OutboxProperties properties,
			ObjectProvider<CaptureFlushHook> flushHooks, ObjectProvider<CommittedEventsListener> committedListeners,
			ObjectProvider<FastPathDispatcher> fastPath, ApplicationEventPublisher publisher,
			ListableBeanFactory beanFactory) {
		RelayHandOff relayHandOff = (fastPath.getIfAvailable() != null)
				? new RelayHandOff(properties.getFastPath().getGracePeriod()) : RelayHandOff.IMMEDIATE;
		CaptureTarget primary = new CaptureTarget(primaryName(beanFactory, dataSource), dataSource, store,
				relayHandOff, committedListeners.orderedStream().toList());
		return new CaptureBuffers(primary, new OutboxTransactionManagers(beanFactory),
				new CommitSteps(flushHooks.orderedStream().toList(), publisher));
	}

	private static String primaryName(ListableBeanFactory beanFactory, DataSource dataSource) {
		return beanFactory.getBeansOfType(DataSource.class, false, false)
			.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() == dataSource)
			.map(Map.Entry::getKey)
			.findFirst()
			.orElse("dataSource");
	}

	/**
	 * The outboxes of the data sources other than the primary one that transaction managers run
	 * transactions on.
	 */
	@Bean
	DataSourceOutboxes outboxDataSourceOutboxes(ListableBeanFactory beanFactory, DataSource dataSource,
			OutboxProperties properties, ObjectProvider<JsonMapper> jsonMapper, OutboxTransports transports,
			RetryPolicy retryPolicy, Outages outages, ObjectProvider<OutboxDeliveryListener> deliveryListeners,
			ObjectProvider<CommittedEventsListener> committedListeners, ObjectProvider<FastPathDispatcher> fastPath,
			CaptureBuffers captureBuffers, ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers,
			ResourceLoader resourceLoader, ObjectProvider<BacklogMonitor> backlog) {
		FastPathDispatcher primaryFastPath = fastPath.getIfAvailable();
		List<CommittedEventsListener> applicationListeners = committedListeners.orderedStream()
			.filter((listener) -> listener != primaryFastPath)
			.toList();
		return new DataSourceOutboxes(beanFactory, dataSource, properties,
				new DataSourceOutboxes.Dependencies(jsonMapper.getIfAvailable(JsonMapper::new), transports,
						retryPolicy, outages, deliveryListeners.orderedStream().toList(), applicationListeners,
						captureBuffers, schedulers, resourceLoader, backlog.getIfAvailable() != null));
	}

	/**
	 * The outboxes of the application's tenants, relayed in turns on a fixed number of threads.
	 */
	@Bean
	@ConditionalOnBean(OutboxTenants.class)
	TenantOutboxes outboxTenantOutboxes(OutboxTenants tenants, DataSource dataSource, OutboxStore store,
			OutboxProperties properties, DataSourceOutboxes outboxes, ObjectProvider<FastPathDispatcher> fastPath) {
		if (properties.getRelay().getMode() != RelayMode.POLLING) {
			throw new OutboxConfigurationException("The application has an OutboxTenants bean, but outbox.relay.mode"
					+ "=log: the log relay reads one outbox table per connector, not the tables of tenants",
					"Set outbox.relay.mode=polling, or remove the OutboxTenants bean and run a connector per tenant");
		}
		return new TenantOutboxes(tenants, dataSource, store.vendor(), properties, outboxes.dependencies(),
				fastPath.getIfAvailable());
	}

	private static Map<String, OutboxMonitoring> otherMonitorings(DataSourceOutboxes outboxes) {
		Map<String, OutboxMonitoring> monitorings = new LinkedHashMap<>();
		outboxes.outboxes().forEach((name, outbox) -> monitorings.put(name, outbox.monitoring()));
		return monitorings;
	}

	@Bean
	OutboxCapture outboxCapture(EventRouting routing, ObjectProvider<JsonMapper> jsonMapper,
			OutboxProperties properties, ObjectProvider<EventHeadersContributor> headersContributors,
			ObjectProvider<OutboxPayloadSerializer> payloadSerializers, OutboxTransports transports,
			CaptureBuffers buffers) {
		EventSerializer serializer = new EventSerializer(jsonMapper.getIfAvailable(JsonMapper::new),
				properties.getMaxPayloadSize().toBytes(), payloadSerializers.orderedStream().toList(),
				properties.getPayloadFormat(), (name) -> {
					OutboxTransport transport = transports.byName().get(name);
					return transport != null && transport.sendsBinaryPayloads();
				});
		properties.getRoutes().forEach((type, route) -> {
			if (route.getPayloadFormat() != null) {
				serializer.checkConfigured("outbox.routes[" + type + "].payload-format", route.getPayloadFormat());
			}
		});
		return new OutboxCapture(routing, serializer, headersContributors.orderedStream().toList(), buffers);
	}

	/**
	 * What is pending or DEAD and why. It and {@link #outboxTesting} read and drive this instance's
	 * engine, which no bean of the application's can stand in for: unlike {@link #outboxAdministration},
	 * neither backs off. The starter's other auto-configurations take it as the sign that the outbox runs.
	 */
	@Bean
	OutboxMonitoring outboxMonitoring(OutboxProperties properties, StoredEvents storedEvents, EventSearch search,
			OutboxTransports transports, Outages outages, ObjectProvider<OutboxRelay> relay, ObjectProvider<FastPathDispatcher> fastPath,
			ObjectProvider<BacklogMonitor> backlog, ObjectProvider<DataSourceOutboxes> outboxes,
			ObjectProvider<TenantOutboxes> tenants, DataSource dataSource, ListableBeanFactory beanFactory) {
		return new DefaultOutboxMonitoring(primaryName(beanFactory, dataSource), properties.getRelay().getMode().value(),
				storedEvents, search, transports, outages, relay::getIfAvailable, fastPath::getIfAvailable,
				backlog::getIfAvailable, () -> otherMonitorings(outboxes.getObject()), tenants::getIfAvailable);
	}

	/**
	 * What an operator may do, for the endpoint. An application's own bean replaces it, as one replaces
	 * {@link DeadEvents}: to audit or refuse discards, say.
	 */
	@Bean
	@ConditionalOnMissingBean
	OutboxAdministration outboxAdministration(StoredEvents storedEvents, EventSearch search, OutboxStore store,
			DataSource dataSource, OutboxTransports transports, ObjectProvider<DataSourceOutboxes> outboxes) {
		AdministeredTable primary = new AdministeredTable(storedEvents, search, store,
				OutboxTransactions.readCommitted(dataSource));
		return new DefaultOutboxAdministration(() -> {
			List<AdministeredTable> tables = new ArrayList<>();
			tables.add(primary);
			tables.addAll(outboxes.getObject().tables());
			return tables;
		}, transports);
	}

	/**
	 * What the test kit needs.
	 */
	@Bean
	OutboxTesting outboxTesting(OutboxCapture capture, BatchDelivery delivery,
			ObjectProvider<DataSourceOutboxes> outboxes, ObjectProvider<TenantOutboxes> tenants) {
		return new DefaultOutboxTesting(capture, () -> {
			List<BatchDelivery> deliveries = new ArrayList<>();
			deliveries.add(delivery);
			deliveries.addAll(outboxes.getObject().deliveries());
			tenants.ifAvailable((tenantOutboxes) -> deliveries.addAll(tenantOutboxes.deliveries()));
			return deliveries;
		});
	}

	@Bean
	static CaptureCommitListenerRegistrar outboxCaptureCommitListenerRegistrar(ObjectProvider<OutboxCapture> capture) {
		return new CaptureCommitListenerRegistrar(capture);
	}

	@Bean
	OutboxEventCaptureListener outboxEventCaptureListener(OutboxCapture capture) {
		return new OutboxEventCaptureListener(capture);
	}

	@Bean
	@ConditionalOnMissingBean
	Outbox outbox(OutboxCapture capture) {
		return new TransactionalOutbox(capture);
	}

	@Bean
	@ConditionalOnMissingBean
	DeadEvents outboxDeadEvents(StoredEvents storedEvents, ObjectProvider<DataSourceOutboxes> outboxes,
			ObjectProvider<TenantOutboxes> tenants) {
		return new StoredDeadEvents(() -> {
			List<StoredEvents> tables = new ArrayList<>();
			tables.add(storedEvents);
			outboxes.getObject().tables().forEach((table) -> tables.add(table.storedEvents()));
			tenants.ifAvailable((tenantOutboxes) -> tables.addAll(tenantOutboxes.tables()));
			return tables;
		});
	}

	/**
	 * The backlog reading, for the metrics and the health indicator: only read when one of them can be,
	 * and not for the log relay, whose backlog is Debezium's lag in the database log, not pending rows.
	 */
	@Bean
	@Conditional(OnBacklogConsumerCondition.class)
	@ConditionalOnProperty(name = "outbox.relay.mode", havingValue = "polling", matchIfMissing = true)
	BacklogMonitor outboxBacklogMonitor(StoredEvents storedEvents, OutboxProperties properties,
			ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers) {
		return new BacklogMonitor(storedEvents, properties.getBacklog().getRefreshInterval(),
				OutboxThreads.named(schedulers, "outbox-backlog"));
	}

}
