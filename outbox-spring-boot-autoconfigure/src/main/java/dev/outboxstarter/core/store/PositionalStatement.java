package dev.outboxstarter.core.store;

import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/**
 * A statement with named parameters turned into JDBC's positional form once, for statements that run
 * so often that parsing and rewriting them per call shows in a profile. It has no collection
 * parameters, so its positional text is the same for every call.
 *
 * @param sql the statement with {@code ?} placeholders
 * @param parsed the parsed original, which orders the values
 */
record PositionalStatement(String sql, ParsedSql parsed) {

	static PositionalStatement of(String namedSql) {
		ParsedSql parsed = NamedParameterUtils.parseSqlStatement(namedSql);
		return new PositionalStatement(NamedParameterUtils.substituteNamedParameters(parsed, null), parsed);
	}

	/**
	 * The values in placeholder order.
	 * @param parameters the values by name
	 * @return the positional values
	 */
	Object[] values(SqlParameterSource parameters) {
		return NamedParameterUtils.buildValueArray(this.parsed, parameters, null);
	}

}
