package dev.outboxstarter.core;

import java.util.function.Supplier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerBuilder;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

/**
 * The threads of the relay, the fast path, the cleanups and the backlog monitor, from Spring Boot's
 * {@link SimpleAsyncTaskSchedulerBuilder}: virtual threads with {@code spring.threads.virtual.enabled=true},
 * and whatever the application's {@code SimpleAsyncTaskSchedulerCustomizer}s set. The outbox names them
 * and lifts any concurrency limit, as each of its tasks keeps its thread for as long as it runs.
 */
final class OutboxThreads {

	private OutboxThreads() {
	}

	/**
	 * New schedulers whose threads are named after an outbox task.
	 * @param builder Spring Boot's builder, if the application has one
	 * @param name the task's name, e.g. {@code outbox-relay}
	 * @return a new scheduler each time it is asked, as a stopped one cannot start again
	 */
	static Supplier<SimpleAsyncTaskScheduler> named(ObjectProvider<SimpleAsyncTaskSchedulerBuilder> builder,
			String name) {
		return () -> {
			SimpleAsyncTaskScheduler scheduler = builder.getIfAvailable(SimpleAsyncTaskSchedulerBuilder::new)
				.threadNamePrefix(name + "-")
				.concurrencyLimit(null)
				.build();
			// Threads that outlive a stop (a batch past outbox.shutdown-timeout) must not keep the JVM up.
			scheduler.setDaemon(true);
			return scheduler;
		};
	}

}
