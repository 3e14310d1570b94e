package dev.outboxstarter.it.orders;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.OutboxHandler;
import dev.outboxstarter.spi.OutboxMessage;

import org.springframework.context.event.EventListener;

/**
 * The in-process handler of the capture tests' events: keeps every message it is handed, in the order
 * it was handed them; and an ordinary listener of the same events, which keeps them as they are
 * published.
 */
public class CapturedEvents {

	public static final String DESTINATION = "captured-events";

	private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

	private final List<Object> published = new CopyOnWriteArrayList<>();

	@EventListener({ InvoiceRequested.class, VoucherIssued.class })
	void published(Object event) {
		this.published.add(event);
	}

	/**
	 * The events published so far, as ordinary application events.
	 * @return the events
	 */
	public List<Object> published() {
		return this.published;
	}

	@OutboxHandler(DESTINATION)
	void handle(Map<String, Object> event, OutboxMessage message) {
		this.deliveries.add(new Delivery((String) event.get("reference"), message));
	}

	/**
	 * The deliveries of events whose reference starts with the given prefix.
	 * @param prefix a prefix unique to one test
	 * @return the deliveries, in delivery order
	 */
	public List<Delivery> startingWith(String prefix) {
		return this.deliveries.stream().filter((delivery) -> delivery.reference().startsWith(prefix)).toList();
	}

	/**
	 * One delivered event.
	 *
	 * @param reference the event's reference
	 * @param message the message as the handler received it
	 */
	public record Delivery(String reference, OutboxMessage message) {
	}

}
