package dev.outboxstarter.internal.store;

import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
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

	private static final SqlParameterValue NULL_MILLIS = new SqlParameterValue(Types.BIGINT, null);

	private static final SqlParameterValue NULL_FLAG = new SqlParameterValue(Types.BOOLEAN, null);

	private static final SqlParameterValue NULL_TIME = new SqlParameterValue(Types.TIMESTAMP_WITH_TIMEZONE, null);

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
	 * @param availableAfter how long the relay leaves the events published at once alone
	 */
	void insert(List<CapturedEvent> events, Duration availableAfter) {
		long delayMillis = availableAfter.toMillis();
		Instant now = Instant.now();
		if (events.size() == 1) {
			this.jdbc.update(this.statement.sql(), values(events.get(0), delayMillis, now));
		}
		else {
			List<Object[]> rows = new ArrayList<>(events.size());
			for (CapturedEvent event : events) {
				rows.add(values(event, delayMillis, now));
			}
			this.jdbc.batchUpdate(this.statement.sql(), rows);
		}
	}

	/**
	 * How long after now a delayed event is due, rounded up to the millisecond. The database adds it to
	 * its own clock: a delivery time counts on this JVM's clock, and the time left until it is the same on
	 * both, however far apart they are. Taken before the statement runs, it can only come out late.
	 */
	private static long deliverAfterMillis(Instant deliverAt, Instant now) {
		Duration left = Duration.between(now, deliverAt);
		if (left.isNegative()) {
			return 0;
		}
		return left.toMillis() + ((left.toNanosPart() % 1_000_000 != 0) ? 1 : 0);
	}

	/**
	 * The values in placeholder order. A null is bound with its SQL type, which spares JDBC the driver
	 * look-ups it makes to bind an untyped one.
	 */
	private Object[] values(CapturedEvent event, long graceMillis, Instant now) {
		Instant deliverAt = event.deliverAt();
		Long deliverAfterMillis = (deliverAt != null) ? deliverAfterMillis(deliverAt, now) : null;
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
				case CONTENT_TYPE -> text(event.contentType());
				case HEADERS -> event.headers().isEmpty() ? NULL_TEXT : this.json.writeValueAsString(event.headers());
				case DELAY_MILLIS -> (deliverAfterMillis != null) ? deliverAfterMillis : graceMillis;
				case DELIVER_AFTER_MILLIS -> (deliverAfterMillis != null) ? deliverAfterMillis : NULL_MILLIS;
				case DELAY_HOLDS_KEY -> (deliverAfterMillis != null) ? event.delayHoldsKey() : NULL_FLAG;
				case DELIVER_AT -> (deliverAt != null) ? OffsetDateTime.ofInstant(deliverAt, ZoneOffset.UTC) : NULL_TIME;
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
		CONTENT_TYPE("contentType"), HEADERS("headers"), DELAY_MILLIS("delayMillis"), DELIVER_AFTER_MILLIS("deliverAfterMillis"),
		DELAY_HOLDS_KEY("delayHoldsKey"), DELIVER_AT("deliverAt");

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
