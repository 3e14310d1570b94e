package dev.outboxstarter.local;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;

import dev.outboxstarter.spi.OutboxMessage;

import org.springframework.util.ReflectionUtils;

/**
 * One {@link OutboxHandler} method, bound to its bean.
 */
final class LocalHandlerMethod {

	private final Object bean;

	private final Method method;

	private final int eventIndex;

	LocalHandlerMethod(Object bean, Method method, int eventIndex) {
		this.bean = bean;
		this.method = method;
		this.eventIndex = eventIndex;
	}

	Type eventType() {
		return this.method.getGenericParameterTypes()[this.eventIndex];
	}

	void invoke(Object event, OutboxMessage message) {
		Object[] arguments = new Object[this.method.getParameterCount()];
		arguments[this.eventIndex] = event;
		if (arguments.length == 2) {
			arguments[1 - this.eventIndex] = message;
		}
		try {
			this.method.invoke(this.bean, arguments);
		}
		catch (InvocationTargetException ex) {
			ReflectionUtils.rethrowRuntimeException(ex.getTargetException());
		}
		catch (IllegalAccessException ex) {
			ReflectionUtils.handleReflectionException(ex);
		}
	}

	@Override
	public String toString() {
		return this.method.getDeclaringClass().getName() + "." + this.method.getName();
	}

}
