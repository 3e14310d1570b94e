package dev.outboxstarter.sample.consumer;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /events}: what the consumer received ({@code ?key=<order id>} for one order), and how
 * many duplicates.
 */
@RestController
public class EventsController {

	private final ReceivedEvents received;

	public EventsController(ReceivedEvents received) {
		this.received = received;
	}

	@GetMapping("/events")
	public EventsView events(@RequestParam(required = false) String key,
			@RequestParam(required = false) Integer last) {
		List<ReceivedEvent> events = (key != null) ? this.received.forKey(key) : this.received.all();
		List<ReceivedEvent> listed = (last != null && last >= 0 && last < events.size())
				? events.subList(events.size() - last, events.size()) : events;
		return new EventsView(events.size(), this.received.duplicates(), listed);
	}

	/**
	 * The response of {@code GET /events}.
	 *
	 * @param count how many messages were received (of the key, if one is given)
	 * @param duplicates how many messages (of any key) repeated a message id already received
	 * @param events the messages, oldest first (only the last ones with {@code ?last=n})
	 */
	public record EventsView(int count, int duplicates, List<ReceivedEvent> events) {
	}

}
