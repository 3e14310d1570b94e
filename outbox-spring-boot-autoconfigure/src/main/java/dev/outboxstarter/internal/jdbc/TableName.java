package dev.outboxstarter.internal.jdbc;

import java.util.regex.Pattern;

import org.springframework.util.Assert;

/**
 * The rule for the names of the tables the outbox and the inbox use, which are put into SQL text and
 * so must be plain identifiers.
 */
public final class TableName {

	private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

	private TableName() {
	}

	/**
	 * Checks that a table name is a plain SQL identifier.
	 * @param table the table name
	 * @throws IllegalArgumentException if it is not
	 */
	public static void check(String table) {
		Assert.isTrue(table != null && PLAIN_IDENTIFIER.matcher(table).matches(), () -> "'" + table
				+ "' is not a plain SQL identifier: use letters, digits and underscores, not starting with a digit, "
				+ "at most 48 characters");
	}

}
