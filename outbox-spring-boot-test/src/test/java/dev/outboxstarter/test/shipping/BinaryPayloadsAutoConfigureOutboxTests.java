package dev.outboxstarter.test.shipping;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.spi.OutboxPayloadSerializer;
import dev.outboxstarter.spi.PayloadTarget;
import dev.outboxstarter.spi.SerializedPayload;
import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.CapturedOutboxEvents;
import dev.outboxstarter.test.PublishedOutboxEvents;
import dev.outboxstarter.test.RecordedOutboxEvent;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Payloads in formats other than JSON, as the test kit shows them: their content type and bytes, and
 * the event read back by the payload serializer that writes their content type.
 */
@SpringBootTest(classes = { ShippingTestApplication.class, BinaryPayloadsAutoConfigureOutboxTests.Formats.class },
		properties = { "outbox.table-name=kit_binary_outbox", "spring.jpa.hibernate.ddl-auto=update",
				"spring.kafka.bootstrap-servers=127.0.0.1:1" })
@AutoConfigureOutbox
class BinaryPayloadsAutoConfigureOutboxTests {

	@Autowired
	private Outbox outbox;

	@Autowired
	private TransactionTemplate transactions;

	@Autowired
	private CapturedOutboxEvents captured;

	@Autowired
	private PublishedOutboxEvents published;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		TestDatabase.POSTGRESQL.register(registry);
	}

	@Test
	void aBinaryPayloadIsReadBackByTheSerializerThatWritesItsContentType() {
		String parcel = "parcel-" + UUID.randomUUID();
		this.transactions.executeWithoutResult((status) -> this.outbox.publish(new ParcelPacked(parcel)));

		RecordedOutboxEvent captured = this.captured.ofType(ParcelPacked.class).get(0);
		assertThat(captured.contentType()).isEqualTo(ReadableFormat.CONTENT_TYPE);
		assertThat(captured.payloadBytes()).isEqualTo(ReadableFormat.bytes(parcel));
		assertThat(captured.payloadAs(ParcelPacked.class)).isEqualTo(new ParcelPacked(parcel));
		RecordedOutboxEvent published = this.published.await(ParcelPacked.class,
				(packed) -> packed.parcel().equals(parcel));
		assertThat(published.contentType()).isEqualTo(ReadableFormat.CONTENT_TYPE);
		assertThat(published.payloadBytes()).isEqualTo(ReadableFormat.bytes(parcel));
		assertThat(this.published.payloads(ParcelPacked.class)).containsExactly(new ParcelPacked(parcel));
	}

	@Test
	void aJsonPayloadHasNoContentTypeAndItsUtf8Bytes() {
		String parcel = "parcel-ünï-" + UUID.randomUUID();
		this.transactions.executeWithoutResult((status) -> this.outbox.publish(new ParcelWeighed(parcel)));

		RecordedOutboxEvent captured = this.captured.ofType(ParcelWeighed.class).get(0);
		assertThat(captured.contentType()).isNull();
		assertThat(captured.payloadBytes()).isEqualTo(captured.payload().getBytes(StandardCharsets.UTF_8));
		assertThat(captured.payloadAs(ParcelWeighed.class)).isEqualTo(new ParcelWeighed(parcel));
	}

	@Test
	void aPayloadOfAContentTypeNoSerializerSaysItWritesIsRefusedNamingTheContentType() {
		this.transactions.executeWithoutResult((status) -> this.outbox.publish(new ParcelLabelled("p-1")));

		RecordedOutboxEvent captured = this.captured.ofType(ParcelLabelled.class).get(0);
		assertThat(captured.payloadBytes()).isEqualTo(new byte[] { 0, 1 });
		assertThatIllegalStateException().isThrownBy(() -> captured.payloadAs(ParcelLabelled.class))
			.withMessageContaining("'application/x-unclaimed'")
			.withMessageContaining("no OutboxPayloadSerializer bean writes it")
			.withMessageContaining("[readable, unclaimed, write-only]")
			.withMessageContaining("payloadBytes()");
	}

	@Test
	void aPayloadOfAFormatThatCannotReadItBackIsRefusedNamingTheFormat() {
		this.transactions.executeWithoutResult((status) -> this.outbox.publish(new ParcelSealed("p-2")));

		RecordedOutboxEvent captured = this.captured.ofType(ParcelSealed.class).get(0);
		assertThatIllegalStateException().isThrownBy(() -> captured.payloadAs(ParcelSealed.class))
			.withMessageContaining("'write-only' writes 'application/x-write-only'")
			.withMessageContaining("does not read its payloads back")
			.withMessageContaining("payloadBytes()");
	}

	@OutboxEvent(destination = "parcels", payloadFormat = "readable")
	record ParcelPacked(String parcel) {
	}

	@OutboxEvent(destination = "parcels")
	record ParcelWeighed(String parcel) {
	}

	@OutboxEvent(destination = "parcels", payloadFormat = "unclaimed")
	record ParcelLabelled(String parcel) {
	}

	@OutboxEvent(destination = "parcels", payloadFormat = "write-only")
	record ParcelSealed(String parcel) {
	}

	/**
	 * A binary format that reads its payloads back: a zero byte, then the parcel. It reads them for the
	 * target it wrote them for.
	 */
	static final class ReadableFormat implements OutboxPayloadSerializer {

		static final String CONTENT_TYPE = "application/x-readable";

		static byte[] bytes(String parcel) {
			return ("\0" + parcel).getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public String format() {
			return "readable";
		}

		@Override
		public SerializedPayload serialize(Object event, PayloadTarget target) {
			return new SerializedPayload(bytes(((ParcelPacked) event).parcel()), CONTENT_TYPE, null);
		}

		@Override
		public boolean writes(String contentType) {
			return CONTENT_TYPE.equals(contentType);
		}

		@Override
		public <T> T deserialize(byte[] payload, Class<T> type, PayloadTarget target) {
			assertThat(target).isEqualTo(new PayloadTarget("ParcelPacked", "kafka", "parcels"));
			return type.cast(new ParcelPacked(new String(payload, 1, payload.length - 1, StandardCharsets.UTF_8)));
		}

	}

	/** A format that does not say which content type it writes. */
	static final class UnclaimedFormat implements OutboxPayloadSerializer {

		@Override
		public String format() {
			return "unclaimed";
		}

		@Override
		public SerializedPayload serialize(Object event, PayloadTarget target) {
			return new SerializedPayload(new byte[] { 0, 1 }, "application/x-unclaimed", null);
		}

	}

	/** A format that says which content type it writes, but cannot read its payloads back. */
	static final class WriteOnlyFormat implements OutboxPayloadSerializer {

		@Override
		public String format() {
			return "write-only";
		}

		@Override
		public SerializedPayload serialize(Object event, PayloadTarget target) {
			return new SerializedPayload(new byte[] { 2 }, "application/x-write-only", null);
		}

		@Override
		public boolean writes(String contentType) {
			return "application/x-write-only".equals(contentType);
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Formats {

		@Bean
		ReadableFormat readableFormat() {
			return new ReadableFormat();
		}

		@Bean
		UnclaimedFormat unclaimedFormat() {
			return new UnclaimedFormat();
		}

		@Bean
		WriteOnlyFormat writeOnlyFormat() {
			return new WriteOnlyFormat();
		}

	}

}
