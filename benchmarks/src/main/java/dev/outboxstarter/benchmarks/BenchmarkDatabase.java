package dev.outboxstarter.benchmarks;

import java.nio.file.Path;
import java.util.List;

/**
 * The databases the suite runs on ({@code --database}), and what differs between them for the
 * harness: the local default URL and user, how a contender's own schema is made and named in a URL,
 * and which processes are the server's (whose CPU time the write cost reads).
 */
public enum BenchmarkDatabase {

	POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/test", "postgres") {

		@Override
		public List<String> createSchema(String schema) {
			return List.of("DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema,
					"CREATE TABLE " + schema + ".bench_order (id BIGSERIAL PRIMARY KEY, "
							+ "order_key VARCHAR(64) NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now())");
		}

		@Override
		String schemaUrl(String jdbcUrl, String schema) {
			return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
		}

		@Override
		public boolean isServerProcess(String commandLine) {
			// The postmaster and every backend and worker it forks ("postgres: ...").
			return commandLine.startsWith("postgres");
		}

	},

	MARIADB("jdbc:mariadb://127.0.0.1:3306/test", "root") {

		@Override
		public List<String> createSchema(String schema) {
			return List.of("DROP DATABASE IF EXISTS " + schema, "CREATE DATABASE " + schema,
					"CREATE TABLE " + schema + ".bench_order (id BIGINT AUTO_INCREMENT PRIMARY KEY, "
							+ "order_key VARCHAR(64) NOT NULL, created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))");
		}

		@Override
		String schemaUrl(String jdbcUrl, String schema) {
			// A schema is a database here: the URL's path names it.
			int query = jdbcUrl.indexOf('?');
			String base = (query < 0) ? jdbcUrl : jdbcUrl.substring(0, query);
			String options = (query < 0) ? "" : jdbcUrl.substring(query);
			return base.substring(0, base.lastIndexOf('/') + 1) + schema + options;
		}

		@Override
		public boolean isServerProcess(String commandLine) {
			// One process, its threads included in its times.
			String program = Path.of(commandLine.split("\0", 2)[0]).getFileName().toString();
			return program.equals("mariadbd") || program.equals("mysqld");
		}

	};

	private final String defaultJdbcUrl;

	private final String defaultUsername;

	BenchmarkDatabase(String defaultJdbcUrl, String defaultUsername) {
		this.defaultJdbcUrl = defaultJdbcUrl;
		this.defaultUsername = defaultUsername;
	}

	/**
	 * The database a JDBC URL points at.
	 * @param jdbcUrl the URL
	 * @return the database
	 * @throws IllegalArgumentException for a database the suite does not run on
	 */
	public static BenchmarkDatabase of(String jdbcUrl) {
		if (jdbcUrl.startsWith("jdbc:postgresql:")) {
			return POSTGRESQL;
		}
		if (jdbcUrl.startsWith("jdbc:mariadb:") || jdbcUrl.startsWith("jdbc:mysql:")) {
			return MARIADB;
		}
		throw new IllegalArgumentException("The benchmarks run on PostgreSQL (jdbc:postgresql:...) or MariaDB "
				+ "(jdbc:mariadb:...), not on " + jdbcUrl);
	}

	/** The local database the suite uses unless {@code --jdbc-url} names another. */
	public String defaultJdbcUrl() {
		return this.defaultJdbcUrl;
	}

	/** The user of {@link #defaultJdbcUrl()}, with an empty password. */
	public String defaultUsername() {
		return this.defaultUsername;
	}

	/** Statements that drop and create a contender's schema, with its business table. */
	public abstract List<String> createSchema(String schema);

	/** The URL of {@code jdbcUrl}'s server with {@code schema} as the connections' schema. */
	abstract String schemaUrl(String jdbcUrl, String schema);

	/**
	 * Whether a process is the database server's.
	 * @param commandLine the process's {@code /proc/<pid>/cmdline}, arguments separated by NUL
	 * @return whether its CPU time is the database's
	 */
	public abstract boolean isServerProcess(String commandLine);

}
