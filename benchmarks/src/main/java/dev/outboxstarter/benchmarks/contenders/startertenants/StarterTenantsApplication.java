package dev.outboxstarter.benchmarks.contenders.startertenants;

import java.util.Collection;
import java.util.List;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxTenants;
import dev.outboxstarter.TenantOutbox;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The starter in a multi-tenant application with a schema per tenant: a key's orders belong to one
 * tenant, whose business table and outbox table are in its schema; the JDBC business insert and
 * {@link Outbox#publish} run in one transaction with that tenant current.
 */
@SpringBootApplication
public class StarterTenantsApplication {

	static final ThreadLocal<String> CURRENT_TENANT = new ThreadLocal<>();

	@Bean
	Tenants tenants(DataSource dataSource, @Value("${bench.schema}") String schema,
			@Value("${bench.tenants}") int count) {
		return new Tenants(IntStream.range(0, count)
			.mapToObj((tenant) -> TenantOutbox.inSchema("t" + tenant, dataSource, tenantSchema(schema, tenant)))
			.toList());
	}

	static String tenantSchema(String schema, int tenant) {
		return schema + "_t" + tenant;
	}

	@Service
	public static class Orders {

		private final JdbcTemplate jdbc;

		private final Outbox outbox;

		private final TransactionTemplate transactions;

		private final List<TenantOutbox> tenants;

		Orders(JdbcTemplate jdbc, Outbox outbox, PlatformTransactionManager transactionManager, Tenants tenants) {
			this.jdbc = jdbc;
			this.outbox = outbox;
			this.transactions = new TransactionTemplate(transactionManager);
			this.tenants = tenants.outboxes;
		}

		/**
		 * Places an order of the key's tenant, the tenant current on the calling thread meanwhile.
		 * @param key the order's key
		 * @param payload the event's payload
		 */
		public void place(String key, String payload) {
			TenantOutbox tenant = this.tenants.get(Math.floorMod(key.hashCode(), this.tenants.size()));
			CURRENT_TENANT.set(tenant.tenant());
			try {
				this.transactions.executeWithoutResult((status) -> {
					this.jdbc.update("INSERT INTO " + tenant.schema() + ".bench_order (order_key) VALUES (?)", key);
					this.outbox.publish(new OrderPlaced(key, payload));
				});
			}
			finally {
				CURRENT_TENANT.remove();
			}
		}

	}

	/**
	 * The tenants, fixed for the run.
	 */
	public static final class Tenants implements OutboxTenants {

		private final List<TenantOutbox> outboxes;

		Tenants(List<TenantOutbox> outboxes) {
			this.outboxes = outboxes;
		}

		@Override
		public Collection<TenantOutbox> tenants() {
			return this.outboxes;
		}

		@Override
		public @Nullable String currentTenant() {
			return CURRENT_TENANT.get();
		}

	}

	@OutboxEvent(destination = "${bench.topic}", key = "key")
	public record OrderPlaced(String key, String payload) {
	}

}
