package dev.outboxstarter.internal.capture;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Tells the capture which aggregate an event belongs to while the event is being published.
 * Spring Data publishes the bare event objects; the repository call that saves or deletes their
 * aggregates opens a scope that maps each event, by identity, to its aggregate.
 */
public final class AggregateContext {

	/** Only threads inside a scope have a stack: every application event asks, most from outside one. */
	private static final ThreadLocal<Deque<Map<Object, Supplier<AggregateRef>>>> scopes = new ThreadLocal<>();

	private AggregateContext() {
	}

	/**
	 * Opens a scope; close it when the events have been published.
	 * @param origins each event mapped, by identity, to its aggregate (resolved lazily, since a new
	 * aggregate gets its id while it is saved)
	 * @return the scope to close
	 */
	public static Scope open(IdentityHashMap<Object, Supplier<AggregateRef>> origins) {
		Deque<Map<Object, Supplier<AggregateRef>>> stack = scopes.get();
		if (stack == null) {
			stack = new ArrayDeque<>();
			scopes.set(stack);
		}
		stack.push(origins);
		Deque<Map<Object, Supplier<AggregateRef>>> opened = stack;
		return () -> {
			opened.pop();
			if (opened.isEmpty()) {
				scopes.remove();
			}
		};
	}

	/**
	 * The aggregate of an event being published, if a scope knows it.
	 * @param event the event
	 * @return its aggregate or {@code null}
	 */
	public static @Nullable AggregateRef aggregateOf(Object event) {
		Deque<Map<Object, Supplier<AggregateRef>>> stack = scopes.get();
		if (stack == null) {
			return null;
		}
		for (Map<Object, Supplier<AggregateRef>> origins : stack) {
			Supplier<AggregateRef> origin = origins.get(event);
			if (origin != null) {
				return origin.get();
			}
		}
		return null;
	}

	/**
	 * Whether an open scope is publishing an event: a repository call that Spring Data publishes the
	 * event of once it returns.
	 * @param event the event
	 * @return whether a scope knows it
	 */
	public static boolean isPublishing(Object event) {
		Deque<Map<Object, Supplier<AggregateRef>>> stack = scopes.get();
		if (stack == null) {
			return false;
		}
		for (Map<Object, Supplier<AggregateRef>> origins : stack) {
			if (origins.containsKey(event)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A scope opened by {@link #open}.
	 */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
