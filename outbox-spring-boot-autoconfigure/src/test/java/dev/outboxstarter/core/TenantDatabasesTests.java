package dev.outboxstarter.core;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxTenants;
import dev.outboxstarter.TenantOutbox;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.lookup.AbstractRoutingDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tenants with a database each, behind a routing data source that the application's transactions run
 * on (three embedded H2 databases: the default one and one per tenant): capture writes through the
 * routed connection into the current tenant's database, and the relay reads each tenant's database
 * through its own data source.
 */
class TenantDatabasesTests {

	private final DataSource acme = embedded();

	private final DataSource globex = embedded();

	private final DataSource shared = embedded();

	private final TenantRouting routing = new TenantRouting(this.shared, Map.of("acme", this.acme, "globex", this.globex));

	private final List<String> published = new CopyOnWriteArrayList<>();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, KafkaAutoConfiguration.class,
				OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA))
		.withBean("dataSource", TenantRouting.class, () -> this.routing)
		.withBean(DataSourceTransactionManager.class, () -> new DataSourceTransactionManager(this.routing))
		.withBean("recording", OutboxTransport.class, () -> new OutboxTransport() {

			@Override
			public String name() {
				return "recording";
			}

			@Override
			public CompletableFuture<?> send(OutboxMessage message) {
				TenantDatabasesTests.this.published.add(message.payload());
				return CompletableFuture.completedFuture(null);
			}

		})
		.withPropertyValues("outbox.routes[java.lang.String].destination=strings",
				"outbox.routes[java.lang.String].transport=recording", "outbox.fast-path.enabled=false",
				"outbox.relay.poll-interval=1h");

	@Test
	void eventsOfATenantsTransactionAreStoredInItsDatabaseAndRelayedFromThere() {
		this.runner.run((context) -> {
			publishAs(context, "acme", "acme event");
			publishAs(context, "globex", "globex event");
			publishAs(context, null, "event of no tenant");
			assertThat(payloads(this.acme)).containsExactly("\"acme event\"");
			assertThat(payloads(this.globex)).containsExactly("\"globex event\"");
			assertThat(payloads(this.shared)).containsExactly("\"event of no tenant\"");
			assertThat(context.getBean(TenantOutboxes.class).relay().round()).isEqualTo(2);
			assertThat(this.published).containsExactlyInAnyOrder("\"acme event\"", "\"globex event\"");
			assertThat(pending(this.acme) + pending(this.globex)).isZero();
		});
	}

	private void publishAs(AssertableApplicationContext context, @Nullable String tenant, String event) {
		this.routing.current = tenant;
		try {
			new TransactionTemplate(context.getBean(DataSourceTransactionManager.class))
				.executeWithoutResult((status) -> context.getBean(Outbox.class).publish(event));
		}
		finally {
			this.routing.current = null;
		}
	}

	private static List<String> payloads(DataSource dataSource) {
		return new JdbcTemplate(dataSource).queryForList("SELECT payload FROM outbox_event ORDER BY seq", String.class);
	}

	private static int pending(DataSource dataSource) {
		return new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM outbox_event WHERE status = 'PENDING'",
				Integer.class);
	}

	private static DataSource embedded() {
		return new DriverManagerDataSource("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
	}

	/**
	 * The application's routing data source, which also tells the outbox its tenants.
	 */
	private static final class TenantRouting extends AbstractRoutingDataSource implements OutboxTenants {

		private final Map<String, DataSource> tenants;

		private volatile @Nullable String current;

		TenantRouting(DataSource shared, Map<String, DataSource> tenants) {
			this.tenants = tenants;
			setDefaultTargetDataSource(shared);
			setTargetDataSources(Map.copyOf(tenants));
			afterPropertiesSet();
		}

		@Override
		protected @Nullable Object determineCurrentLookupKey() {
			return this.current;
		}

		@Override
		public Collection<TenantOutbox> tenants() {
			return this.tenants.entrySet()
				.stream()
				.map((tenant) -> TenantOutbox.inDatabase(tenant.getKey(), tenant.getValue()))
				.toList();
		}

		@Override
		public @Nullable String currentTenant() {
			return this.current;
		}

	}

}
