package dev.outboxstarter.kafka.connect;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
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
		assertThat(record.topic()).isEqualTo("orders");
	}

	@Test
	void aJsonPayloadIsSentAsItsUtf8BytesWithoutAContentType() {
		this.transform.configure(Map.of());
		SourceRecord record = this.transform.apply(record(routedHeaders("kafka", null), "{\"note\":\"ünï ✓\"}"));
		assertThat(record.valueSchema()).isEqualTo(Schema.BYTES_SCHEMA);
		assertThat((byte[]) record.value()).isEqualTo("{\"note\":\"ünï ✓\"}".getBytes(StandardCharsets.UTF_8));
		assertThat(names(record)).doesNotContain("content-type");
	}

	@Test
	void aBinaryPayloadIsSentAsItsDecodedBytesWithItsContentTypeLast() {
		this.transform.configure(Map.of());
		byte[] avro = { 0, 2, (byte) 0xff, '{' };
		ConnectHeaders routed = routedHeaders("kafka", "{\"outbox-payload-schema\":\"urn:schema:1\"}");
		routed.addString(ToOutboxMessage.CONTENT_TYPE, "application/avro");
		SourceRecord record = this.transform.apply(record(routed, Base64.getEncoder().encodeToString(avro)));
		assertThat((byte[]) record.value()).isEqualTo(avro);
		assertThat(names(record)).containsExactly("outbox-payload-schema", "outbox-message-id", "outbox-event-type",
				"outbox-aggregate-type", "outbox-aggregate-id", "outbox-occurred-at", "content-type");
		assertThat(record.headers().lastWithName("content-type").value()).isEqualTo("application/avro");
	}

	@Test
	void aBinaryPayloadThatIsNotBase64IsRefusedNamingItsContentType() {
		this.transform.configure(Map.of());
		ConnectHeaders routed = routedHeaders("kafka", null);
		routed.addString(ToOutboxMessage.CONTENT_TYPE, "application/avro");
		assertThatThrownBy(() -> this.transform.apply(record(routed, "{not base64}")))
			.isInstanceOf(DataException.class)
			.hasMessageContaining("application/avro payload")
			.hasMessageContaining("not Base64");
	}

	@Test
	void aCloudEventGetsTheCloudEventsHeadersAndItsDataContentTypeAsTheTransportWritesThem() {
		this.transform.configure(Map.of());
		ConnectHeaders routed = routedHeaders("kafka",
				"{\"ce_specversion\":\"1.0\",\"tenant\":\"t1\",\"ce_source\":\"/orders\",\"outbox-payload-schema\":\"urn:schema:1\"}");
		routed.addString(ToOutboxMessage.CONTENT_TYPE, "application/avro");
		SourceRecord record = this.transform.apply(record(routed, Base64.getEncoder().encodeToString(new byte[] { 1 })));
		assertThat(names(record)).containsExactly("tenant", "outbox-payload-schema", "outbox-message-id",
				"outbox-event-type", "outbox-aggregate-type", "outbox-aggregate-id", "outbox-occurred-at", "ce_id",
				"ce_source", "ce_specversion", "ce_type", "ce_subject", "ce_time", "ce_dataschema", "content-type");
		assertThat(values(record)).containsEntry("ce_id", "0193-id")
			.containsEntry("ce_source", "/orders")
			.containsEntry("ce_type", "OrderPlaced")
			.containsEntry("ce_subject", "o-1")
			.containsEntry("ce_time", "2026-11-25T17:43:01.123400Z")
			.containsEntry("ce_dataschema", "urn:schema:1")
			.containsEntry("content-type", "application/avro");
	}

	@Test
	void aJsonCloudEventsContentTypeIsJson() {
		this.transform.configure(Map.of());
		SourceRecord record = this.transform
			.apply(record(routedHeaders("kafka", "{\"ce_specversion\":\"1.0\",\"ce_source\":\"/orders\"}")));
		assertThat(names(record)).doesNotContain("ce_dataschema").endsWith("ce_time", "content-type");
		assertThat(values(record)).containsEntry("content-type", "application/json");
	}

	@Test
	void aRecordWithoutTheContentTypeHeaderIsRefusedNamingThePlacementAndTheConverter() {
		this.transform.configure(Map.of());
		ConnectHeaders routed = routedHeaders("kafka", null);
		routed.remove(ToOutboxMessage.CONTENT_TYPE);
		assertThatThrownBy(() -> this.transform.apply(record(routed))).isInstanceOf(DataException.class)
			.hasMessageContaining("content_type:header:outbox-content-type")
			.hasMessageContaining("ByteArrayConverter");
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
		routed.add(ToOutboxMessage.CONTENT_TYPE, null, Schema.OPTIONAL_STRING_SCHEMA);
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
		routed.add(ToOutboxMessage.CONTENT_TYPE, null, Schema.OPTIONAL_STRING_SCHEMA);
		routed.addString("outbox-event-type", "OrderPlaced");
		routed.addString("outbox-aggregate-type", "Order");
		routed.addString("outbox-aggregate-id", "o-1");
		routed.addString("outbox-occurred-at", "2026-11-25T17:43:01.1234Z");
		return routed;
	}

	private static SourceRecord record(ConnectHeaders headers) {
		return record(headers, "{\"a\":1}");
	}

	private static SourceRecord record(ConnectHeaders headers, String payload) {
		return new SourceRecord(Map.of(), Map.of(), "orders", null, Schema.OPTIONAL_STRING_SCHEMA, "o-1",
				Schema.STRING_SCHEMA, payload, 0L, headers);
	}

	private static Map<String, Object> values(SourceRecord record) {
		Map<String, Object> values = new LinkedHashMap<>();
		for (Header header : record.headers()) {
			values.put(header.key(), header.value());
		}
		return values;
	}

	private static List<String> names(SourceRecord record) {
		List<String> names = new ArrayList<>();
		for (Header header : record.headers()) {
			names.add(header.key());
		}
		return names;
	}

}
