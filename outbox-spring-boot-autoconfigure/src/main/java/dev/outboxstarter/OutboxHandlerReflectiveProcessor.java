package dev.outboxstarter;

import java.lang.reflect.Method;

import dev.outboxstarter.spi.OutboxMessage;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.SimpleReflectiveProcessor;

/**
 * Registers what an {@link OutboxHandler} method needs under Spring AOT: the method, which the
 * {@code local} transport invokes reflectively, and the binding of its event parameter, which it
 * reads from the outbox row's JSON.
 */
class OutboxHandlerReflectiveProcessor extends SimpleReflectiveProcessor {

	private final BindingReflectionHintsRegistrar bindingRegistrar = new BindingReflectionHintsRegistrar();

	@Override
	protected void registerMethodHint(ReflectionHints hints, Method method) {
		super.registerMethodHint(hints, method);
		for (Class<?> parameter : method.getParameterTypes()) {
			if (parameter != OutboxMessage.class) {
				this.bindingRegistrar.registerReflectionHints(hints, parameter);
			}
		}
	}

}
