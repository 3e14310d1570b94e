package dev.outboxstarter.internal.store;

import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.outboxstarter.internal.jdbc.DatabaseVendor;
import dev.outboxstarter.spi.CapturedEvent;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.SqlParameterValue;

/**
 * The insert of captured events, which runs in every business transaction: its named parameters are
 * resolved once, here, and each event's values are bound in placeholder order straight from the event.
 */
final class OutboxInsert {

	private static final SqlParameterValue NULL_TEXT = new SqlParameterValue(Types.VARCHAR, null);

	private final JdbcOperations jdbc;

	private final DatabaseVendor vendor;

	private final PositionalStatement statement;

	/** The statement's parameters in placeholder order. */
	private final InsertParameter[] parameters;

	private final JsonMapper json;

	OutboxInsert(JdbcOperations jdbc, DatabaseVendor vendor, String namedSql, JsonMapper json) {
		this.jdbc = jdbc;
		this.vendor = vendor;
		this.statement = PositionalStatement.of(namedSql);
		this.parameters = this.statement.parameterNames().stream().map(InsertParameter::named)
			.toArray(InsertParameter[]::new);
		this.json = json;
	}

	/**
	 * Inserts the events: one statement for a single event, one JDBC batch for several.
	 * @param events the events, in capture order
	 * @param availableAfter how long the relay leaves them alone
	 */
	void insert(List<CapturedEvent> events, Duration availableAfter) {
		long delayMillis = availableAfter.toMillis();
		if (events.size() == 1) {
			this.jdbc.update(this.statement.sql(), values(events.get(0), delayMillis));
		}
		else {
			List<Object[]> rows = new ArrayList<>(events.size());
			for (CapturedEvent event : events) {
				rows.add(values(event, delayMillis));
			}
			this.jdbc.batchUpdate(this.statement.sql(), rows);
		}
	}

	/**
	 * The values in placeholder order. A null is bound with its SQL type, which spares JDBC the driver
	 * look-ups it makes to bind an untyped one.
	 */
	private Object[] values(CapturedEvent event, long delayMillis) {
		Object[] values = new Object[this.parameters.length];
		for (int i = 0; i < values.length; i++) {
			values[i] = switch (this.parameters[i]) {
				case ID -> this.vendor.idParameter(event.id());
				case AGGREGATE_TYPE -> text(event.aggregateType());
				case AGGREGATE_ID -> text(event.aggregateId());
				case EVENT_TYPE -> event.eventType();
				case TRANSPORT -> event.transport();
				case DESTINATION -> event.destination();
				case MESSAGE_KEY -> text(event.messageKey());
				case PAYLOAD -> event.payload();
				case HEADERS -> event.headers().isEmpty() ? NULL_TEXT : this.json.writeValueAsString(event.headers());
				case DELAY_MILLIS -> delayMillis;
			};
		}
		return values;
	}

	private static Object text(@Nullable String value) {
		return (value != null) ? value : NULL_TEXT;
	}

	/**
	 * The named parameters of the {@code insert} statement.
	 */
	private enum InsertParameter {

		ID("id"), AGGREGATE_TYPE("aggregateType"), AGGREGATE_ID("aggregateId"), EVENT_TYPE("eventType"),
		TRANSPORT("transport"), DESTINATION("destination"), MESSAGE_KEY("messageKey"), PAYLOAD("payload"),
		HEADERS("headers"), DELAY_MILLIS("delayMillis");

		private final String name;

		InsertParameter(String name) {
			this.name = name;
		}

		static InsertParameter named(String name) {
			for (InsertParameter parameter : values()) {
				if (parameter.name.equals(name)) {
					return parameter;
				}
			}
			throw new IllegalStateException("The outbox insert has a parameter :" + name + " that it cannot bind");
		}

	}

}
