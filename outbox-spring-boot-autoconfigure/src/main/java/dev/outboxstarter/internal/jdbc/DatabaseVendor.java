package dev.outboxstarter.internal.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Properties;
import java.util.UUID;

import javax.sql.DataSource;

import dev.outboxstarter.OutboxConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * The databases the outbox supports. Each has its own migrations under
 * {@code db/outbox/migration/<folder>} and its own statements in
 * {@code db/outbox/statements/<folder>.properties}; the few differences in how values are bound and
 * read are here.
 */
public enum DatabaseVendor {

	POSTGRESQL("postgresql"),

	/** MariaDB and MySQL share a dialect for everything the outbox runs. */
	MYSQL("mysql"),

	H2("h2");

	private final String folder;

	DatabaseVendor(String folder) {
		this.folder = folder;
	}

	/**
	 * The folder name of this vendor's migrations and statements.
	 * @return the folder name
	 */
	public String folder() {
		return this.folder;
	}

	/**
	 * Reads this vendor's statements, the SQL of the outbox, the inbox and their schema, with
	 * placeholders for the table names.
	 * @return the statements by name
	 */
	public Properties statements() {
		String location = "db/outbox/statements/" + this.folder + ".properties";
		try {
			return PropertiesLoaderUtils.loadProperties(new ClassPathResource(location, DatabaseVendor.class.getClassLoader()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + location, ex);
		}
	}

	/**
	 * The Flyway location of this vendor's migrations.
	 * @return a {@code classpath:} location
	 */
	public String migrationLocation() {
		return "classpath:db/outbox/migration/" + this.folder;
	}

	/**
	 * Where the inbox's migrations for this database are.
	 * @return a classpath location
	 */
	public String inboxMigrationLocation() {
		return "classpath:db/outbox/inbox-migration/" + this.folder;
	}

	/**
	 * Detects the vendor from the database the data source connects to.
	 * @param dataSource the outbox data source
	 * @return the vendor
	 * @throws IllegalStateException if the database is not supported or cannot be reached
	 */
	public static DatabaseVendor of(DataSource dataSource) {
		String[] productAndVersion;
		try {
			productAndVersion = JdbcUtils.extractDatabaseMetaData(dataSource, (metaData) -> new String[] {
					metaData.getDatabaseProductName(), metaData.getDatabaseProductVersion() });
		}
		catch (MetaDataAccessException ex) {
			throw new IllegalStateException("Could not determine the outbox database: " + ex.getMessage(), ex);
		}
		return of(productAndVersion[0], productAndVersion[1]);
	}

	/**
	 * The vendor of a database that reports this product name and version, once its version is known
	 * to run every statement of the outbox.
	 * @param product the product name the JDBC driver reports
	 * @param version the product version the JDBC driver reports
	 * @return the vendor
	 * @throws OutboxConfigurationException if the database or its version is not supported
	 */
	static DatabaseVendor of(String product, String version) {
		DatabaseVendor vendor = fromProductName(product);
		SupportedVersion supported = SupportedVersion.of(product, version);
		if (supported != null) {
			supported.check(version);
		}
		return vendor;
	}

	static DatabaseVendor fromProductName(String product) {
		return switch (DatabaseDriver.fromProductName(product)) {
			case POSTGRESQL -> POSTGRESQL;
			case MARIADB, MYSQL -> MYSQL;
			case H2 -> H2;
			default -> throw new OutboxConfigurationException("The outbox supports PostgreSQL, MariaDB, MySQL and H2, "
					+ "but the DataSource connects to '" + product + "'",
					"Use one of those databases, or set outbox.enabled=false");
		};
	}

	public Object idParameter(UUID id) {
		// MariaDB/MySQL store ids as CHAR(36); the others have a native UUID type.
		return (this == MYSQL) ? id.toString() : id;
	}

	/**
	 * An instant as this vendor's timestamp columns take it as a statement parameter: MariaDB's and
	 * MySQL's {@code DATETIME(6)} hold UTC without a zone, the others store the zone.
	 * @param instant the instant
	 * @return the parameter value
	 */
	public Object instantParameter(Instant instant) {
		return (this == MYSQL) ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC) : instant.atOffset(ZoneOffset.UTC);
	}

	public Instant readInstant(ResultSet rs, String column) throws SQLException {
		Instant value = readNullableInstant(rs, column);
		if (value == null) {
			throw new SQLException("Column " + column + " is null");
		}
		return value;
	}

	public @Nullable Instant readNullableInstant(ResultSet rs, String column) throws SQLException {
		if (this == MYSQL) {
			// DATETIME(6) holds UTC without a zone.
			LocalDateTime value = rs.getObject(column, LocalDateTime.class);
			return (value != null) ? value.toInstant(ZoneOffset.UTC) : null;
		}
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

}
