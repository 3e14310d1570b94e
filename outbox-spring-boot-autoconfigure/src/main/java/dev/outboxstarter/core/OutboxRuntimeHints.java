package dev.outboxstarter.core;

import dev.outboxstarter.IdempotentConsumer;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHandler;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

/**
 * What the outbox reads reflectively or from the classpath, for Spring AOT and native images: its SQL
 * statements and migration scripts, the attributes of its annotations, and the domain events of
 * aggregates that extend Spring Data's {@code AbstractAggregateRoot}, which the flush-time capture
 * reads from managed entities. The methods annotated {@code @OutboxHandler} and
 * {@code @IdempotentConsumer}, and the events handlers take, are registered through {@code @Reflective}
 * on those annotations; the {@code outbox.*} properties by Spring Boot's binding hints.
 */
class OutboxRuntimeHints implements RuntimeHintsRegistrar {

	private static final String AGGREGATE_ROOT = "org.springframework.data.domain.AbstractAggregateRoot";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources()
			.registerPattern("db/outbox/statements/*.properties")
			.registerPattern("db/outbox/migration/*/V*__*.sql")
			.registerPattern("db/outbox/inbox-migration/*/V*__*.sql");
		// MergedAnnotations reads an annotation's attributes through its methods.
		for (Class<?> annotation : new Class<?>[] { OutboxEvent.class, OutboxEvent.List.class, OutboxHandler.class,
				IdempotentConsumer.class }) {
			hints.reflection().registerType(annotation, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
		if (ClassUtils.isPresent(AGGREGATE_ROOT, classLoader)) {
			hints.reflection().registerType(TypeReference.of(AGGREGATE_ROOT), MemberCategory.INVOKE_DECLARED_METHODS);
		}
	}

}
