package dev.outboxstarter.internal.capture.jpa;

import java.util.IdentityHashMap;
import java.util.function.Supplier;

import dev.outboxstarter.internal.capture.AggregateContext;
import dev.outboxstarter.internal.capture.AggregateRef;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.data.repository.core.EntityInformation;

/**
 * Wraps a repository's {@code save*} and {@code delete*} methods so that, while Spring Data publishes
 * the aggregates' {@code @DomainEvents}, the capture knows which aggregate each event came from, and a
 * flush during the call leaves those events to Spring Data.
 */
class AggregateTrackingInterceptor implements MethodInterceptor {

	private final EntityInformation<Object, ?> entityInformation;

	private final String aggregateType;

	AggregateTrackingInterceptor(EntityInformation<Object, ?> entityInformation) {
		this.entityInformation = entityInformation;
		this.aggregateType = entityInformation.getJavaType().getSimpleName();
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		String name = invocation.getMethod().getName();
		if (invocation.getArguments().length != 1 || !(name.startsWith("save") || name.startsWith("delete"))) {
			return invocation.proceed();
		}
		IdentityHashMap<Object, Supplier<AggregateRef>> origins = new IdentityHashMap<>();
		collect(invocation.getArguments()[0], origins);
		if (origins.isEmpty()) {
			return invocation.proceed();
		}
		try (AggregateContext.Scope scope = AggregateContext.open(origins)) {
			return invocation.proceed();
		}
	}

	private void collect(@Nullable Object argument, IdentityHashMap<Object, Supplier<AggregateRef>> origins) {
		if (argument instanceof Iterable<?> aggregates) {
			aggregates.forEach((aggregate) -> collectEvents(aggregate, origins));
		}
		else {
			collectEvents(argument, origins);
		}
	}

	private void collectEvents(@Nullable Object aggregate, IdentityHashMap<Object, Supplier<AggregateRef>> origins) {
		if (aggregate == null) {
			return;
		}
		DomainEventMethods methods = DomainEventMethods.of(aggregate.getClass());
		if (methods == null) {
			return;
		}
		// Resolved when the event is captured: a new aggregate has its id only once it is saved.
		Supplier<AggregateRef> origin = () -> new AggregateRef(this.aggregateType, this.entityInformation.getId(aggregate));
		for (Object event : methods.events(aggregate)) {
			origins.put(event, origin);
			if (!methods.clearsEvents()) {
				// Spring Data publishes it now, and the aggregate keeps it: a later flush must not publish it again.
				PublishedDomainEvents.record(event);
			}
		}
	}

}
