package dev.outboxstarter.internal.operations;

import java.util.List;
import java.util.function.Supplier;

import dev.outboxstarter.internal.capture.OutboxCapture;
import dev.outboxstarter.internal.delivery.BatchDelivery;
import dev.outboxstarter.operations.OutboxTesting;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.PublishPath;

/**
 * {@link OutboxTesting} over the capture and the deliveries of every outbox.
 */
public final class DefaultOutboxTesting implements OutboxTesting {

	/** The relay's batch size for {@link #publishDue()}, which runs rarely and from the caller's thread. */
	private static final int PUBLISH_DUE_BATCH_SIZE = 100;

	private final OutboxCapture capture;

	private final Supplier<List<BatchDelivery>> deliveries;

	/**
	 * Creates the view.
	 * @param capture the capture
	 * @param deliveries the delivery of each outbox, the primary data source's first
	 */
	public DefaultOutboxTesting(OutboxCapture capture, Supplier<List<BatchDelivery>> deliveries) {
		this.capture = capture;
		this.deliveries = deliveries;
	}

	@Override
	public int publishDue() {
		int published = 0;
		for (BatchDelivery delivery : this.deliveries.get()) {
			DeliveryResult result;
			do {
				result = delivery.deliver(PublishPath.RELAY, (store) -> store.claimDue(PUBLISH_DUE_BATCH_SIZE, 0));
				published += result.published();
			}
			while (result.published() > 0);
		}
		return published;
	}

	@Override
	public List<CapturedEvent> flushAndListCaptured() {
		return this.capture.flushAndListCaptured();
	}

}
