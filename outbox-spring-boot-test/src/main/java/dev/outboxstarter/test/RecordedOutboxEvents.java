package dev.outboxstarter.test;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.outboxstarter.OutboxEvent;

import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.StringUtils;

/**
 * What {@link CapturedOutboxEvents} and {@link PublishedOutboxEvents} have in common: a list of
 * events, selected by type, for AssertJ's {@code assertThat}.
 */
abstract class RecordedOutboxEvents {

	/**
	 * Every event, in the order it was recorded.
	 * @return the events
	 */
	public abstract List<RecordedOutboxEvent> all();

	/**
	 * The events of a logical event type.
	 * @param eventType the event type as stored, e.g. {@code OrderPlaced}
	 * @return the events of that type, in order
	 */
	public List<RecordedOutboxEvent> ofType(String eventType) {
		return all().stream().filter((event) -> event.eventType().equals(eventType)).toList();
	}

	/**
	 * The events of a class: those whose logical type is one its {@link OutboxEvent @OutboxEvent}
	 * annotations give, or its simple name. For a type an {@code OutboxEventRouter} or an
	 * {@code outbox.routes} entry names otherwise, use {@link #ofType(String)}.
	 * @param type the event class
	 * @return the events of that class, in order
	 */
	public List<RecordedOutboxEvent> ofType(Class<?> type) {
		Set<String> eventTypes = eventTypesOf(type);
		return all().stream().filter((event) -> eventTypes.contains(event.eventType())).toList();
	}

	/**
	 * The events of a class, read back ({@link RecordedOutboxEvent#payloadAs(Class)}): for comparing
	 * whole events, e.g. {@code assertThat(captured.payloads(OrderPlaced.class)).containsExactly(expected)}.
	 * @param <T> the event class
	 * @param type the event class
	 * @return the events of that class, in order
	 * @see #ofType(Class)
	 */
	public <T> List<T> payloads(Class<T> type) {
		return ofType(type).stream().map((event) -> event.payloadAs(type)).toList();
	}

	static Set<String> eventTypesOf(Class<?> type) {
		Set<String> eventTypes = new LinkedHashSet<>();
		MergedAnnotations.from(type, SearchStrategy.TYPE_HIERARCHY)
			.stream(OutboxEvent.class)
			.map((annotation) -> annotation.getString("type"))
			.forEach((eventType) -> eventTypes.add(StringUtils.hasText(eventType) ? eventType : type.getSimpleName()));
		if (eventTypes.isEmpty()) {
			eventTypes.add(type.getSimpleName());
		}
		return eventTypes;
	}

}
