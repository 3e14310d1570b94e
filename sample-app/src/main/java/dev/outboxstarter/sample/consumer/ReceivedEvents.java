package dev.outboxstarter.sample.consumer;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * What the consumer received, in memory, in arrival order. A message whose id was seen before is a
 * duplicate: it is kept (flagged) and counted. At-least-once delivery allows duplicates after a crash
 * or a timeout; in normal operation there should be none.
 */
@Component
public class ReceivedEvents {

	private static final Logger logger = LoggerFactory.getLogger(ReceivedEvents.class);

	private final List<ReceivedEvent> events = new CopyOnWriteArrayList<>();

	private final Set<String> messageIds = ConcurrentHashMap.newKeySet();

	private final AtomicInteger duplicates = new AtomicInteger();

	/**
	 * Records a received message.
	 * @param event the message, with its {@code duplicate} flag still unset
	 * @return the message as recorded, with the flag set if its id was seen before
	 */
	public ReceivedEvent record(ReceivedEvent event) {
		boolean duplicate = event.messageId() != null && !this.messageIds.add(event.messageId());
		ReceivedEvent recorded = duplicate ? new ReceivedEvent(event.messageId(), event.eventType(), event.key(),
				event.payload(), event.partition(), event.offset(), event.receivedAt(), true) : event;
		if (duplicate) {
			this.duplicates.incrementAndGet();
			logger.warn("Duplicate {} {} for key {}", event.eventType(), event.messageId(), event.key());
		}
		else {
			logger.debug("Received {} {} for key {}", event.eventType(), event.messageId(), event.key());
		}
		this.events.add(recorded);
		return recorded;
	}

	/**
	 * Every message received, duplicates included, oldest first.
	 * @return the messages
	 */
	public List<ReceivedEvent> all() {
		return List.copyOf(this.events);
	}

	/**
	 * The messages of one key (one order), duplicates included, oldest first.
	 * @param key the key
	 * @return the messages
	 */
	public List<ReceivedEvent> forKey(String key) {
		return this.events.stream().filter((event) -> key.equals(event.key())).toList();
	}

	/**
	 * How many messages repeated an id already received.
	 * @return the count
	 */
	public int duplicates() {
		return this.duplicates.get();
	}

}
