package dev.outboxstarter.core;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Which statements and migrations the outbox takes, from the database its DataSource reaches.
 */
class DatabaseVendorTests {

	@Test
	void eachSupportedDatabaseIsRecognisedFromWhatItCallsItself() {
		assertThat(DatabaseVendor.of(TestDatabase.POSTGRESQL.dataSource())).isEqualTo(DatabaseVendor.POSTGRESQL);
		assertThat(DatabaseVendor.of(TestDatabase.MARIADB.dataSource())).isEqualTo(DatabaseVendor.MYSQL);
		assertThat(DatabaseVendor.of(TestDatabase.H2.dataSource())).isEqualTo(DatabaseVendor.H2);
		assertThat(DatabaseVendor.fromProductName("MySQL")).isEqualTo(DatabaseVendor.MYSQL);
	}

	@Test
	void anotherDatabaseIsRefusedNamingIt() {
		assertThatExceptionOfType(OutboxConfigurationException.class)
			.isThrownBy(() -> DatabaseVendor.fromProductName("Oracle"))
			.withMessageContaining("but the DataSource connects to 'Oracle'")
			.satisfies((ex) -> assertThat(ex.getAction()).contains("outbox.enabled=false"));
	}

}
