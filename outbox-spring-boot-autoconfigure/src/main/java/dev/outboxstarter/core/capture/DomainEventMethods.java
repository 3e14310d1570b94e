package dev.outboxstarter.core.capture;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.data.domain.AfterDomainEventPublication;
import org.springframework.data.domain.DomainEvents;
import org.springframework.util.ReflectionUtils;

/**
 * The {@code @DomainEvents} and {@code @AfterDomainEventPublication} methods of an aggregate class,
 * found once per class.
 */
public final class DomainEventMethods {

	private static final Map<Class<?>, Optional<DomainEventMethods>> cache = new ConcurrentHashMap<>();

	private final Method events;

	private final @Nullable Method clear;

	private DomainEventMethods(Method events, @Nullable Method clear) {
		this.events = events;
		this.clear = clear;
	}

	/**
	 * The methods of an aggregate class.
	 * @param type the class
	 * @return its methods, or {@code null} if it has no {@code @DomainEvents} method
	 */
	public static @Nullable DomainEventMethods of(Class<?> type) {
		return cache.computeIfAbsent(type, DomainEventMethods::find).orElse(null);
	}

	private static Optional<DomainEventMethods> find(Class<?> type) {
		Method events = annotated(type, DomainEvents.class);
		return (events != null) ? Optional.of(new DomainEventMethods(events, annotated(type, AfterDomainEventPublication.class)))
				: Optional.empty();
	}

	private static @Nullable Method annotated(Class<?> type, Class<? extends java.lang.annotation.Annotation> annotation) {
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
	 * @return a copy of its events
	 */
	public List<Object> events(Object aggregate) {
		Object result = ReflectionUtils.invokeMethod(this.events, aggregate);
		if (result == null) {
			return List.of();
		}
		if (result instanceof Collection<?> collection) {
			return new ArrayList<>(collection);
		}
		return List.of(result);
	}

	/**
	 * Tells the aggregate its events were published, so it clears them.
	 * @param aggregate the aggregate
	 */
	public void clear(Object aggregate) {
		if (this.clear != null) {
			ReflectionUtils.invokeMethod(this.clear, aggregate);
		}
	}

}
