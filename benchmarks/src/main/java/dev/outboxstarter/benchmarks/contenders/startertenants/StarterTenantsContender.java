package dev.outboxstarter.benchmarks.contenders.startertenants;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import dev.outboxstarter.benchmarks.BenchmarkDatabase;
import dev.outboxstarter.benchmarks.ContenderSettings;
import dev.outboxstarter.benchmarks.contenders.SpringContender;

/**
 * The starter at its defaults with its events spread over a number of tenants, each with a schema of its
 * own (a database, on MariaDB) holding its business table and its outbox table: the tenants' schemas
 * are made before the application starts, their outbox tables by the starter.
 */
public class StarterTenantsContender extends SpringContender {

	private final int tenants;

	private StarterTenantsApplication.Orders orders;

	public StarterTenantsContender(int tenants) {
		this.tenants = tenants;
	}

	@Override
	public void start(ContenderSettings settings) {
		BenchmarkDatabase database = BenchmarkDatabase.of(settings.jdbcUrl());
		try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(), settings.username(), "");
				Statement statement = connection.createStatement()) {
			for (int tenant = 0; tenant < this.tenants; tenant++) {
				for (String sql : database.createSchema(StarterTenantsApplication.tenantSchema(settings.schema(), tenant))) {
					statement.execute(sql);
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not make the tenants' schemas", ex);
		}
		super.start(settings);
		this.orders = bean(StarterTenantsApplication.Orders.class);
	}

	@Override
	protected Class<?> application() {
		return StarterTenantsApplication.class;
	}

	/**
	 * The tenants' settings, and on PostgreSQL a driver statement cache sized for the tenants' tables, as
	 * docs/several-databases.md advises: the statements name each tenant's tables and list a batch's ids
	 * one parameter each, so each tenant has a few dozen, and the default cache of 256 would keep few.
	 */
	@Override
	protected Map<String, Object> properties(ContenderSettings settings) {
		Map<String, Object> properties = new HashMap<>();
		properties.put("bench.schema", settings.schema());
		properties.put("bench.tenants", this.tenants);
		if (BenchmarkDatabase.of(settings.jdbcUrl()) == BenchmarkDatabase.POSTGRESQL) {
			properties.put("spring.datasource.hikari.data-source-properties.preparedStatementCacheQueries",
					Math.max(256, 40 * this.tenants));
			properties.put("spring.datasource.hikari.data-source-properties.preparedStatementCacheSizeMiB",
					Math.max(5, this.tenants / 2));
		}
		return properties;
	}

	@Override
	public void placeOrder(String key, String payload) {
		this.orders.place(key, payload);
	}

}
