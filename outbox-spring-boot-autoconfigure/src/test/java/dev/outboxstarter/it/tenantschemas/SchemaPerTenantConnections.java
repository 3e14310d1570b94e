package dev.outboxstarter.it.tenantschemas;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;

/**
 * Hibernate's connections for a tenant: a connection of the shared pool whose current schema is the
 * tenant's for as long as the session holds it, and the pool's own schema again once it is released,
 * so that the next borrower of the connection does not work in the tenant's schema.
 */
final class SchemaPerTenantConnections implements MultiTenantConnectionProvider<String> {

	private final DataSource dataSource;

	SchemaPerTenantConnections(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	@Override
	public Connection getAnyConnection() throws SQLException {
		return this.dataSource.getConnection();
	}

	@Override
	public void releaseAnyConnection(Connection connection) throws SQLException {
		connection.close();
	}

	@Override
	public Connection getConnection(String tenant) throws SQLException {
		Connection connection = getAnyConnection();
		try {
			connection.setSchema(tenant);
		}
		catch (SQLException ex) {
			connection.close();
			throw ex;
		}
		return connection;
	}

	@Override
	public void releaseConnection(String tenant, Connection connection) throws SQLException {
		try {
			connection.setSchema(CurrentTenant.NO_TENANT);
		}
		finally {
			connection.close();
		}
	}

	@Override
	public boolean supportsAggressiveRelease() {
		return false;
	}

	@Override
	public boolean handlesConnectionSchema() {
		return true;
	}

	@Override
	public boolean isUnwrappableAs(Class<?> type) {
		return type.isInstance(this);
	}

	@Override
	public <T> T unwrap(Class<T> type) {
		if (!isUnwrappableAs(type)) {
			throw new IllegalArgumentException("Cannot unwrap to " + type);
		}
		return type.cast(this);
	}

}
