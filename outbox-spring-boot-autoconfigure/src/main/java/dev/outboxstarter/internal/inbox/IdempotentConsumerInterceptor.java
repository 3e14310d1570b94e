package dev.outboxstarter.internal.inbox;

import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.IdempotentConsumer;
import dev.outboxstarter.Inbox;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;

/**
 * Runs {@link IdempotentConsumer} methods through the {@link Inbox}: a duplicate returns
 * {@code null} without calling the method.
 */
public class IdempotentConsumerInterceptor implements MethodInterceptor {

	private final ObjectProvider<Inbox> inbox;

	private final Map<Method, Target> targets = new ConcurrentHashMap<>();

	/**
	 * Creates the interceptor.
	 * @param inbox the inbox, resolved on first use so that advising beans does not create it early
	 */
	public IdempotentConsumerInterceptor(ObjectProvider<Inbox> inbox) {
		this.inbox = inbox;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Target target = this.targets.computeIfAbsent(invocation.getMethod(), IdempotentConsumerInterceptor::target);
		MessageIds.MessageId messageId = MessageIds.of(invocation.getArguments()[target.messageArgument()]);
		Object[] result = new Object[1];
		this.inbox.getObject().process(target.consumer(), messageId.source(), messageId.id(), () -> {
			try {
				result[0] = invocation.proceed();
			}
			catch (Exception | Error ex) {
				throw ex;
			}
			catch (Throwable ex) {
				throw new UndeclaredThrowableException(ex);
			}
		});
		return result[0];
	}

	private static Target target(Method method) {
		IdempotentConsumer annotation = AnnotatedElementUtils.findMergedAnnotation(method, IdempotentConsumer.class);
		int argument = MessageIds.messageArgument(method)
			.orElseThrow(() -> new IllegalStateException(IdempotentConsumerMethods.noMessageArgument(method)));
		return new Target(consumerName(method, annotation), argument);
	}

	static String consumerName(Method method, @Nullable IdempotentConsumer annotation) {
		return (annotation != null && StringUtils.hasText(annotation.value())) ? annotation.value()
				: method.getDeclaringClass().getSimpleName() + "." + method.getName();
	}

	private record Target(String consumer, int messageArgument) {
	}

}
