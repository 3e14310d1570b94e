package dev.outboxstarter.internal.store;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.namedparam.AbstractSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;

/**
 * A statement with named parameters turned into JDBC's positional form once, for statements that run
 * in every business transaction, where parsing them per call would add to each. It has no collection
 * parameters, so its positional text is the same for every call.
 *
 * @param sql the statement with {@code ?} placeholders
 * @param parameterNames the name of the parameter at each placeholder, in order (a name used twice
 * appears twice)
 */
record PositionalStatement(String sql, List<String> parameterNames) {

	static PositionalStatement of(String namedSql) {
		ParsedSql parsed = NamedParameterUtils.parseSqlStatement(namedSql);
		List<String> names = new ArrayList<>();
		for (Object name : NamedParameterUtils.buildValueArray(parsed, new OwnNames(), null)) {
			names.add((String) name);
		}
		return new PositionalStatement(NamedParameterUtils.substituteNamedParameters(parsed, null), List.copyOf(names));
	}

	/**
	 * Gives every parameter its own name as its value, which turns the values in placeholder order into
	 * the names in placeholder order.
	 */
	private static final class OwnNames extends AbstractSqlParameterSource {

		@Override
		public boolean hasValue(String paramName) {
			return true;
		}

		@Override
		public @Nullable Object getValue(String paramName) {
			return paramName;
		}

	}

}
