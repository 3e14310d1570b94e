package dev.outboxstarter.sample.consumer;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

import org.springframework.stereotype.Component;

/**
 * Reads a received message's body: the event as JSON, amounts kept exact (42.50, not 42.5).
 */
@Component
class EventPayloads {

	private final JsonMapper jsonMapper;

	EventPayloads(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper.rebuild().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
	}

	JsonNode read(String body) {
		if (body == null) {
			return null;
		}
		try {
			return this.jsonMapper.readTree(body);
		}
		catch (JacksonException ex) {
			// Not JSON (not from the outbox): keep it as text.
			return StringNode.valueOf(body);
		}
	}

}
