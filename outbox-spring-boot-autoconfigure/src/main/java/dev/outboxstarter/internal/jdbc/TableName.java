package dev.outboxstarter.internal.jdbc;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The rule for the names of the tables the outbox and the inbox use, which are put into SQL text and
 * so must be plain identifiers.
 */
public final class TableName {

	private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

	private static final Pattern SCHEMA = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

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

	/**
	 * A table's name in a schema, for SQL that reaches the table from a connection whose current schema
	 * may be another one.
	 * @param schema the schema, or {@code null} for the connection's current one
	 * @param table the table's name, a plain SQL identifier
	 * @return the table's name, qualified by the schema when there is one
	 */
	public static String inSchema(@Nullable String schema, String table) {
		check(table);
		if (schema == null) {
			return table;
		}
		Assert.isTrue(SCHEMA.matcher(schema).matches(),
				() -> "'" + schema + "' is not a plain SQL identifier for a schema");
		return schema + "." + table;
	}

	/**
	 * Checks a table's name that may be qualified by a schema, as {@link #inSchema} makes it.
	 * @param table the table's name
	 * @throws IllegalArgumentException if it is not a plain SQL identifier, qualified or not
	 */
	public static void checkQualified(String table) {
		int dot = (table != null) ? table.indexOf('.') : -1;
		if (dot < 0) {
			check(table);
		}
		else {
			inSchema(table.substring(0, dot), table.substring(dot + 1));
		}
	}

	/**
	 * The name of a table without its schema, for the names of its indexes.
	 * @param table the table's name, qualified by a schema or not
	 * @return its name in its schema
	 */
	public static String unqualified(String table) {
		return table.substring(table.indexOf('.') + 1);
	}

}
