package dev.outboxstarter.tracing;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the {@code outbox.publish} observation of each send. Declare a bean of this type to
 * replace {@link DefaultOutboxPublishObservationConvention}, for example to add a tag of your own or to
 * drop a high-cardinality one.
 *
 * @since 0.1.0
 */
public interface OutboxPublishObservationConvention extends ObservationConvention<OutboxPublishContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof OutboxPublishContext;
	}

}
