package dev.outboxstarter.local;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxHandler;
import dev.outboxstarter.spi.OutboxMessage;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds the {@link OutboxHandler} methods of the context's singletons once they are all created, and
 * checks each: one handler per name, and parameters the outbox can supply.
 */
class LocalHandlerMethods implements SmartInitializingSingleton, BeanFactoryAware {

	private final Map<String, LocalHandlerMethod> byName = new ConcurrentHashMap<>();

	private ConfigurableListableBeanFactory beanFactory;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (String beanName : this.beanFactory.getBeanNamesForType(Object.class, false, false)) {
			Class<?> type = this.beanFactory.getType(beanName);
			if (type == null || !AnnotationUtils.isCandidateClass(type, OutboxHandler.class)) {
				continue;
			}
			Map<Method, OutboxHandler> methods = MethodIntrospector.selectMethods(ClassUtils.getUserClass(type),
					(MethodIntrospector.MetadataLookup<OutboxHandler>) (method) -> AnnotatedElementUtils
						.findMergedAnnotation(method, OutboxHandler.class));
			if (!methods.isEmpty()) {
				Object bean = this.beanFactory.getBean(beanName);
				methods.forEach((method, annotation) -> register(bean, method, annotation.value()));
			}
		}
	}

	/**
	 * The handler of a destination.
	 * @param name the destination name
	 * @return the handler, or {@code null} if there is none
	 */
	@Nullable LocalHandlerMethod get(String name) {
		return this.byName.get(name);
	}

	private void register(Object bean, Method method, String name) {
		Assert.hasText(name, () -> "@OutboxHandler on " + method + " needs a destination name");
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		ReflectionUtils.makeAccessible(invocable);
		int eventIndex = eventParameterIndex(method);
		LocalHandlerMethod handler = new LocalHandlerMethod(bean, invocable, eventIndex);
		LocalHandlerMethod existing = this.byName.putIfAbsent(name, handler);
		if (existing != null) {
			throw new OutboxConfigurationException(
					"Two @OutboxHandler methods are named '" + name + "': " + existing + " and " + handler,
					"Give each destination one handler");
		}
	}

	private static int eventParameterIndex(Method method) {
		Class<?>[] parameters = method.getParameterTypes();
		if (parameters.length == 1 && parameters[0] != OutboxMessage.class) {
			return 0;
		}
		if (parameters.length == 2 && (parameters[0] == OutboxMessage.class) != (parameters[1] == OutboxMessage.class)) {
			return (parameters[0] == OutboxMessage.class) ? 1 : 0;
		}
		throw new OutboxConfigurationException("@OutboxHandler method " + method + " takes parameters the outbox "
				+ "cannot supply", "It must take the event and, optionally, the OutboxMessage");
	}

}
