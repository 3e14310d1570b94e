package dev.outboxstarter.tracing;

import io.micrometer.common.KeyValues;

/**
 * The {@code outbox.publish} observation's name and tags by default: the transport and event type as
 * low-cardinality tags (on the timer), the destination and message id as high-cardinality ones (on the
 * span only).
 *
 * @since 0.1.0
 */
public class DefaultOutboxPublishObservationConvention implements OutboxPublishObservationConvention {

	/** The observation's name, and so its timer's. */
	public static final String NAME = "outbox.publish";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(OutboxPublishContext context) {
		return context.getMessage().destination() + " publish";
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(OutboxPublishContext context) {
		return KeyValues.of("outbox.transport", context.getTransport(), "outbox.event.type",
				context.getMessage().eventType());
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(OutboxPublishContext context) {
		return KeyValues.of("outbox.destination", context.getMessage().destination(), "outbox.message.id",
				context.getMessage().id().toString());
	}

}
