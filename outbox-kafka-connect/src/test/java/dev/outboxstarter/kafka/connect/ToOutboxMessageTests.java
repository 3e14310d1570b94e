package dev.outboxstarter.kafka.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the transform makes of the event router's records. The end-to-end comparison with the starter's
 * own Kafka transport, on a real Connect worker, is in the outbox-log-relay-tests module.
 */
class ToOutboxMessageTests {

	private final ToOutboxMessage<SourceRecord> transform = new ToOutboxMessage<>();

	@Test
	void storedHeadersComeFirstThenTheOutboxHeadersInTheTransportsOrder() {
		this.transform.configure(Map.of());
		ConnectHeaders routed = routedHeaders("kafka", "{\"traceparent\":\"00-abc-def-01\",\"tenant\":\"t1\"}");
		SourceRecord record = this.transform.apply(record(routed));
		assertThat(names(record)).containsExactly("traceparent", "tenant", "outbox-message-id", "outbox-event-type",
				"outbox-aggregate-type", "outbox-aggregate-id", "outbox-occurred-at");
		assertThat(record.headers().lastWithName("outbox-occurred-at").value()).isEqualTo("2026-11-25T17:43:01.123400Z");
		assertThat(record.key()).isEqualTo("o-1");
		assertThat(record.value()).isEqualTo("{\"a\":1}");
		assertThat(record.topic()).isEqualTo("orders");
	}

	@Test
	void rowsOfOtherTransportsAreLeftToThePollingInstances() {
		this.transform.configure(Map.of());
		assertThat(this.transform.apply(record(routedHeaders("rabbit", null)))).isNull();
	}

	@Test
	void absentAggregateHeadersAreLeftOutAsTheTransportDoes() {
		this.transform.configure(Map.of());
		ConnectHeaders routed = new ConnectHeaders();
		routed.addString(ToOutboxMessage.ROUTER_ID, "id-1");
		routed.addString(ToOutboxMessage.TRANSPORT, "kafka");
		routed.addString("outbox-event-type", "Ping");
		routed.add("outbox-aggregate-type", null, Schema.OPTIONAL_STRING_SCHEMA);
		routed.addLong("outbox-occurred-at", 1_764_092_581_000_001L);
		SourceRecord record = this.transform.apply(record(routed));
		assertThat(names(record)).containsExactly("outbox-message-id", "outbox-event-type", "outbox-occurred-at");
		assertThat(record.headers().lastWithName("outbox-occurred-at").value()).isEqualTo("2025-11-25T17:43:01.000001Z");
	}

	@Test
	void aRecordWithoutTheTransportHeaderIsRefusedNamingTheSetting() {
		this.transform.configure(Map.of());
		assertThatThrownBy(() -> this.transform.apply(record(new ConnectHeaders()))).isInstanceOf(DataException.class)
			.hasMessageContaining("outbox-transport")
			.hasMessageContaining("table.fields.additional.placement");
	}

	private static ConnectHeaders routedHeaders(String transport, String stored) {
		ConnectHeaders routed = new ConnectHeaders();
		routed.addString(ToOutboxMessage.ROUTER_ID, "0193-id");
		routed.addString(ToOutboxMessage.TRANSPORT, transport);
		routed.addString(ToOutboxMessage.STORED_HEADERS, stored);
		routed.addString("outbox-event-type", "OrderPlaced");
		routed.addString("outbox-aggregate-type", "Order");
		routed.addString("outbox-aggregate-id", "o-1");
		routed.addString("outbox-occurred-at", "2026-11-25T17:43:01.1234Z");
		return routed;
	}

	private static SourceRecord record(ConnectHeaders headers) {
		return new SourceRecord(Map.of(), Map.of(), "orders", null, Schema.OPTIONAL_STRING_SCHEMA, "o-1",
				Schema.STRING_SCHEMA, "{\"a\":1}", 0L, headers);
	}

	private static List<String> names(SourceRecord record) {
		List<String> names = new ArrayList<>();
		for (Header header : record.headers()) {
			names.add(header.key());
		}
		return names;
	}

}
