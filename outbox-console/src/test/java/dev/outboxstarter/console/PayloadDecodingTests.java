package dev.outboxstarter.console;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import dev.outboxstarter.console.OutboxConsoleEndpoint.Payload;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JSON and text payloads are shown as they are; one that is not printable text is shown as Base64,
 * from which its characters come back exactly, instead of garbled characters.
 */
class PayloadDecodingTests {

	private final JsonMapper json = new JsonMapper();

	@Test
	void jsonIsShownAsJson() {
		assertThat(PayloadDecoding.decode("{\"total\":12,\"note\":\"caf\u00e9 \ud83d\udce6\"}", null, this.json))
			.isEqualTo(new Payload("json", "{\"total\":12,\"note\":\"caf\u00e9 \ud83d\udce6\"}", null));
	}

	@Test
	void printableTextThatIsNotJsonIsShownAsText() {
		assertThat(PayloadDecoding.decode("order 7 shipped\n\tto Z\u00fcrich", null, this.json))
			.isEqualTo(new Payload("text", "order 7 shipped\n\tto Z\u00fcrich", null));
	}

	@Test
	void controlCharactersReplacementCharactersAndLoneSurrogatesAreShownAsBase64OfTheirUtf8Bytes() {
		for (String binary : new String[] { "\u0000\u0001avro\u0002", "bytes \ufffd\ufffd that were not UTF-8",
				"half \ud83d of a pair" }) {
			Payload payload = PayloadDecoding.decode(binary, null, this.json);
			assertThat(payload.encoding()).as(binary).isEqualTo("base64");
			assertThat(Base64.getDecoder().decode(payload.value())).as(binary)
				.isEqualTo(binary.getBytes(StandardCharsets.UTF_8));
		}
	}

	@Test
	void aPayloadInABinaryFormatIsShownAsTheBase64ItIsStoredInWithItsContentType() {
		String avro = Base64.getEncoder().encodeToString(new byte[] { 0, 0, 0, 0, 7, 2, 'a' });
		assertThat(PayloadDecoding.decode(avro, "application/avro", this.json))
			.isEqualTo(new Payload("base64", avro, "application/avro"));
	}

}
