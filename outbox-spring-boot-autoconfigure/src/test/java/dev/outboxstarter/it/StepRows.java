package dev.outboxstarter.it;

import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The outbox rows of {@link KeyedSteps.Step} events, found by key and number.
 */
record StepRows(JdbcTemplate jdbc, String table) {

	UUID idOf(String key, int number) {
		return this.jdbc.queryForObject("SELECT id FROM " + this.table + " WHERE payload LIKE ?", UUID.class,
				"%" + key + "\",\"number\":" + number + ",%");
	}

	String statusOf(String key, int number) {
		return this.jdbc.queryForObject("SELECT status FROM " + this.table + " WHERE id = ?", String.class,
				idOf(key, number));
	}

	int attemptsOf(String key, int number) {
		return this.jdbc.queryForObject("SELECT attempts FROM " + this.table + " WHERE id = ?", Integer.class,
				idOf(key, number));
	}

}
