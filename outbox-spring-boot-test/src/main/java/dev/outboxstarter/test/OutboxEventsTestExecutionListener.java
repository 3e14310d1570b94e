package dev.outboxstarter.test;

import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Starts every test method with empty {@link CapturedOutboxEvents} and {@link PublishedOutboxEvents},
 * so that a test sees only its own events although tests share their application context.
 */
final class OutboxEventsTestExecutionListener implements TestExecutionListener, Ordered {

	@Override
	public void beforeTestMethod(TestContext testContext) {
		if (!testContext.hasApplicationContext()) {
			return;
		}
		ApplicationContext context = testContext.getApplicationContext();
		context.getBeanProvider(CapturedOutboxEvents.class).ifAvailable(CapturedOutboxEvents::clear);
		context.getBeanProvider(PublishedOutboxEvents.class).ifAvailable(PublishedOutboxEvents::clear);
	}

	@Override
	public int getOrder() {
		// Before the test's transaction starts (TransactionalTestExecutionListener, 4000).
		return 3900;
	}

}
