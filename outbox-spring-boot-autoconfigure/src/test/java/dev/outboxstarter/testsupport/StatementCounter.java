package dev.outboxstarter.testsupport;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Wraps a data source and counts what JDBC does with the statements whose SQL starts with a prefix:
 * how many are prepared, how many rows are added to a batch, and how many batches and single
 * updates are executed.
 */
public final class StatementCounter {

	private final String sqlPrefix;

	private final AtomicInteger prepared = new AtomicInteger();

	private final AtomicInteger batchedRows = new AtomicInteger();

	private final AtomicInteger batches = new AtomicInteger();

	private final AtomicInteger singleUpdates = new AtomicInteger();

	public StatementCounter(String sqlPrefix) {
		this.sqlPrefix = sqlPrefix;
	}

	public DataSource wrap(DataSource dataSource) {
		return new DelegatingDataSource(dataSource) {

			@Override
			public Connection getConnection() throws java.sql.SQLException {
				return connection(super.getConnection());
			}

		};
	}

	public void reset() {
		this.prepared.set(0);
		this.batchedRows.set(0);
		this.batches.set(0);
		this.singleUpdates.set(0);
	}

	public int prepared() {
		return this.prepared.get();
	}

	public int batchedRows() {
		return this.batchedRows.get();
	}

	public int batches() {
		return this.batches.get();
	}

	public int singleUpdates() {
		return this.singleUpdates.get();
	}

	private Connection connection(Connection target) {
		return proxy(Connection.class, target, (proxy, method, args) -> {
			Object result = invoke(method, target, args);
			if (method.getName().equals("prepareStatement") && args[0] instanceof String sql
					&& sql.stripLeading().startsWith(this.sqlPrefix)) {
				this.prepared.incrementAndGet();
				return statement((PreparedStatement) result);
			}
			return result;
		});
	}

	private PreparedStatement statement(PreparedStatement target) {
		return proxy(PreparedStatement.class, target, (proxy, method, args) -> {
			switch (method.getName()) {
				case "addBatch" -> this.batchedRows.incrementAndGet();
				case "executeBatch", "executeLargeBatch" -> this.batches.incrementAndGet();
				case "executeUpdate", "execute", "executeLargeUpdate" -> this.singleUpdates.incrementAndGet();
				default -> {
				}
			}
			return invoke(method, target, args);
		});
	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, T target, InvocationHandler handler) {
		return (T) Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), new Class<?>[] { type }, handler);
	}

	private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

}
