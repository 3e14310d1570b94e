package dev.outboxstarter.console;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import dev.outboxstarter.console.OutboxConsoleEndpoint.Payload;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Decides how the console shows a payload: a payload serializer's binary format (stored in Base64) as
 * Base64 with its content type, JSON as JSON, other text as text, and anything else that is not
 * printable text as Base64 of its UTF-8 bytes, never garbled.
 */
final class PayloadDecoding {

	private PayloadDecoding() {
	}

	static Payload decode(String payload, @Nullable String contentType, JsonMapper json) {
		if (contentType != null) {
			return new Payload("base64", payload, contentType);
		}
		if (isJson(payload, json)) {
			return new Payload("json", payload, null);
		}
		if (isPrintable(payload)) {
			return new Payload("text", payload, null);
		}
		return new Payload("base64", Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8)),
				null);
	}

	private static boolean isJson(String payload, JsonMapper json) {
		try {
			json.readTree(payload);
			return !payload.isBlank();
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	/**
	 * No control character but line breaks and tabs, no replacement character (bytes that were not
	 * UTF-8 when the payload was read) and no lone surrogate.
	 */
	private static boolean isPrintable(String payload) {
		for (int i = 0; i < payload.length(); i++) {
			char c = payload.charAt(i);
			if (Character.isHighSurrogate(c)) {
				if (i + 1 == payload.length() || !Character.isLowSurrogate(payload.charAt(i + 1))) {
					return false;
				}
				i++;
			}
			else if (Character.isLowSurrogate(c) || c == '\uFFFD'
					|| (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t')) {
				return false;
			}
		}
		return true;
	}

}
