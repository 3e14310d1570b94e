package dev.outboxstarter.internal.capture.jpa;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.data.domain.AfterDomainEventPublication;
import org.springframework.data.domain.DomainEvents;
import org.springframework.util.ReflectionUtils;

/**
 * The {@code @DomainEvents} and {@code @AfterDomainEventPublication} methods of an aggregate class,
 * found once per class.
 */
final class DomainEventMethods {

	/** Asked for every entity of every flush: a class without events must cost one lookup and nothing more. */
	private static final ClassValue<DomainEventMethods> cache = new ClassValue<>() {

		@Override
		protected DomainEventMethods computeValue(Class<?> type) {
			return find(type);
		}

	};

	private static final DomainEventMethods NONE = new DomainEventMethods(null, null);

	private static final Object[] NO_ARGUMENTS = {};

	private final @Nullable Method events;

	private final @Nullable Method clear;

	private DomainEventMethods(@Nullable Method events, @Nullable Method clear) {
		this.events = events;
		this.clear = clear;
	}

	/**
	 * The methods of an aggregate class.
	 * @param type the class
	 * @return its methods, or {@code null} if it has no {@code @DomainEvents} method
	 */
	public static @Nullable DomainEventMethods of(Class<?> type) {
		DomainEventMethods methods = cache.get(type);
		return (methods != NONE) ? methods : null;
	}

	private static DomainEventMethods find(Class<?> type) {
		Method events = annotated(type, DomainEvents.class);
		return (events != null) ? new DomainEventMethods(events, annotated(type, AfterDomainEventPublication.class))
				: NONE;
	}

	private static @Nullable Method annotated(Class<?> type, Class<? extends Annotation> annotation) {
		Method[] found = new Method[1];
		ReflectionUtils.doWithMethods(type, (method) -> {
			if (found[0] == null) {
				ReflectionUtils.makeAccessible(method);
				found[0] = method;
			}
		}, (method) -> method.getParameterCount() == 0 && method.isAnnotationPresent(annotation));
		return found[0];
	}

	/**
	 * The events an aggregate holds now.
	 * @param aggregate the aggregate
	 * @return a copy of its events; the shared empty list if it has none
	 */
	public List<Object> events(Object aggregate) {
		Object result = ReflectionUtils.invokeMethod(this.events, aggregate, NO_ARGUMENTS);
		if (result == null) {
			return List.of();
		}
		if (result instanceof Collection<?> collection) {
			return collection.isEmpty() ? List.of() : new ArrayList<>(collection);
		}
		return List.of(result);
	}

	/**
	 * Whether the aggregate clears its events when told they were published. One that does not
	 * (no {@code @AfterDomainEventPublication} method) still holds them afterwards.
	 * @return whether it has an {@code @AfterDomainEventPublication} method
	 */
	public boolean clearsEvents() {
		return this.clear != null;
	}

	/**
	 * Tells the aggregate its events were published, so it clears them.
	 * @param aggregate the aggregate
	 */
	public void clear(Object aggregate) {
		if (this.clear != null) {
			ReflectionUtils.invokeMethod(this.clear, aggregate, NO_ARGUMENTS);
		}
	}

}
