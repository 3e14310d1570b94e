package dev.outboxstarter.internal.inbox;

import java.lang.reflect.Method;
import java.util.Map;

import dev.outboxstarter.IdempotentConsumer;
import dev.outboxstarter.OutboxConfigurationException;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Checks every {@link IdempotentConsumer} method at start-up, so that a listener that would not be
 * deduplicated fails the application rather than its first duplicate: the inbox must be enabled, and
 * the method must take the message with its headers.
 */
public class IdempotentConsumerMethods implements BeanPostProcessor {

	private final boolean inboxEnabled;

	public IdempotentConsumerMethods(boolean inboxEnabled) {
		this.inboxEnabled = inboxEnabled;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> type = AopUtils.getTargetClass(bean);
		if (!AnnotationUtils.isCandidateClass(type, IdempotentConsumer.class)) {
			return bean;
		}
		Map<Method, IdempotentConsumer> methods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<IdempotentConsumer>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, IdempotentConsumer.class));
		methods.keySet().forEach(this::check);
		return bean;
	}

	private void check(Method method) {
		if (!this.inboxEnabled) {
			throw new OutboxConfigurationException(describe(method) + " is @IdempotentConsumer, but the inbox is "
					+ "off", "Set outbox.inbox.enabled=true (it creates the inbox table next to the outbox's)");
		}
		if (MessageIds.messageArgument(method).isEmpty()) {
			throw new IllegalStateException(noMessageArgument(method));
		}
	}

	static String noMessageArgument(Method method) {
		return describe(method) + " is @IdempotentConsumer but takes no message with headers to read the "
				+ "outbox-message-id from: add a parameter of one of these types: " + MessageIds.supportedTypes();
	}

	private static String describe(Method method) {
		return method.getDeclaringClass().getName() + "." + method.getName() + "()";
	}

}
