package dev.outboxstarter.internal.operations;

import java.util.List;

import dev.outboxstarter.internal.capture.OutboxCapture;
import dev.outboxstarter.internal.delivery.BatchDelivery;
import dev.outboxstarter.operations.OutboxTesting;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.DeliveryResult;
import dev.outboxstarter.spi.PublishPath;

/**
 * {@link OutboxTesting} over the capture and the delivery.
 */
public final class DefaultOutboxTesting implements OutboxTesting {

	/** The relay's batch size for {@link #publishDue()}, which runs rarely and from the caller's thread. */
	private static final int PUBLISH_DUE_BATCH_SIZE = 100;

	private final OutboxCapture capture;

	private final BatchDelivery delivery;

	public DefaultOutboxTesting(OutboxCapture capture, BatchDelivery delivery) {
		this.capture = capture;
		this.delivery = delivery;
	}

	@Override
	public int publishDue() {
		int published = 0;
		DeliveryResult result;
		do {
			result = this.delivery.deliver(PublishPath.RELAY, (store) -> store.claimDue(PUBLISH_DUE_BATCH_SIZE, 0));
			published += result.published();
		}
		while (result.published() > 0);
		return published;
	}

	@Override
	public List<CapturedEvent> flushAndListCaptured() {
		return this.capture.flushAndListCaptured();
	}

}
