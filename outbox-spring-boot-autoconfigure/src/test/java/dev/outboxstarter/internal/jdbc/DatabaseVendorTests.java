package dev.outboxstarter.internal.jdbc;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Which statements and migrations the outbox takes, from the database its DataSource reaches.
 */
public class DatabaseVendorTests {

	@Test
	void eachSupportedDatabaseIsRecognisedFromWhatItCallsItself() {
		assertThat(DatabaseVendor.of(TestDatabase.POSTGRESQL.dataSource())).isEqualTo(DatabaseVendor.POSTGRESQL);
		assertThat(DatabaseVendor.of(TestDatabase.MARIADB.dataSource())).isEqualTo(DatabaseVendor.MYSQL);
		assertThat(DatabaseVendor.of(TestDatabase.H2.dataSource())).isEqualTo(DatabaseVendor.H2);
		assertThat(DatabaseVendor.fromProductName("MySQL")).isEqualTo(DatabaseVendor.MYSQL);
	}

	@Test
	void aMariaDbWithoutSkipLockedIsRefusedNamingTheVersionFoundAndTheOneNeeded() {
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> DatabaseVendor.of("MariaDB", "10.5.27-MariaDB-1:10.5.27+maria~deb11"))
			.withMessageContaining("needs MariaDB 10.6 or later")
			.withMessageContaining("SKIP LOCKED")
			.withMessageContaining("connects to MariaDB 10.5.27")
			.satisfies((ex) -> assertThat(ex.getAction()).contains("Upgrade the database to MariaDB 10.6"));
	}

	@Test
	void aMariaDbReachedThroughMySqlsDriverIsCheckedAsMariaDb() {
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> DatabaseVendor.of("MySQL", "5.5.5-10.4.34-MariaDB"))
			.withMessageContaining("connects to MariaDB 10.4.34");
		assertThat(DatabaseVendor.of("MySQL", "5.5.5-10.11.19-MariaDB-0+deb12u1")).isEqualTo(DatabaseVendor.MYSQL);
	}

	@Test
	void aMySqlBeforeEightIsRefused() {
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> DatabaseVendor.of("MySQL", "5.7.44"))
			.withMessageContaining("needs MySQL 8.0 or later")
			.withMessageContaining("connects to MySQL 5.7.44");
		assertThat(DatabaseVendor.of("MySQL", "8.0.40")).isEqualTo(DatabaseVendor.MYSQL);
	}

	@Test
	void aPostgreSqlBeforeElevenIsRefused() {
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> DatabaseVendor.of("PostgreSQL", "10.23"))
			.withMessageContaining("needs PostgreSQL 11 or later")
			.withMessageContaining("connects to PostgreSQL 10.23");
		assertThat(DatabaseVendor.of("PostgreSQL", "15.19 (Debian 15.19-0+deb12u1)"))
			.isEqualTo(DatabaseVendor.POSTGRESQL);
	}

	@Test
	void anotherDatabaseIsRefusedNamingIt() {
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> DatabaseVendor.fromProductName("Oracle"))
			.withMessageContaining("but the DataSource connects to 'Oracle'")
			.satisfies((ex) -> assertThat(ex.getAction()).contains("outbox.enabled=false"));
	}

}
