package dev.outboxstarter.internal.capture;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.transaction.ConfigurableTransactionManager;

/**
 * Adds a {@link CaptureCommitListener} to every transaction manager of the context that takes
 * listeners (every {@code AbstractPlatformTransactionManager}): those Spring Boot configures and those
 * the application declares itself, to which Boot's transaction manager customizers do not apply.
 */
public class CaptureCommitListenerRegistrar implements BeanPostProcessor {

	private final CaptureCommitListener listener;

	public CaptureCommitListenerRegistrar(ObjectProvider<OutboxCapture> capture) {
		this.listener = new CaptureCommitListener(capture);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ConfigurableTransactionManager transactionManager
				&& !transactionManager.getTransactionExecutionListeners().contains(this.listener)) {
			transactionManager.addListener(this.listener);
		}
		return bean;
	}

}
