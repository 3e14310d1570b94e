package dev.outboxstarter.core;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The outbox's threads come from Spring Boot's task scheduler builder: the application customizes
 * them where it customizes its own ({@code SimpleAsyncTaskSchedulerCustomizer},
 * {@code spring.task.scheduling.simple.*}, {@code spring.threads.virtual.enabled}), and they are named
 * after what they do and never keep the JVM up.
 */
class OutboxThreadsTests {

	private final List<String> customized = new CopyOnWriteArrayList<>();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
				TaskSchedulingAutoConfiguration.class, OutboxAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
				"outbox.relay.poll-interval=10ms")
		.withBean(SimpleAsyncTaskSchedulerCustomizer.class,
				() -> (scheduler) -> this.customized.add(scheduler.getThreadNamePrefix()));

	@Test
	void relayFastPathCleanupAndBacklogMonitorRunOnThreadsOfTheApplicationsSchedulerBuilder() {
		this.runner.run((context) -> {
			assertThat(this.customized).containsExactlyInAnyOrder("outbox-relay-", "outbox-fast-path-", "outbox-cleanup-",
					"outbox-backlog-");
			await().untilAsserted(() -> assertThat(outboxThreads()).extracting(Thread::getName)
				.contains("outbox-relay-1", "outbox-fast-path-1", "outbox-cleanup-1", "outbox-backlog-1"));
			assertThat(outboxThreads()).allMatch(Thread::isDaemon);
		});
	}

	@Test
	void aConcurrencyLimitForTheApplicationsTasksDoesNotHoldBackTheOutboxsLongRunningOnes() {
		this.runner
			.withPropertyValues("spring.task.scheduling.simple.concurrency-limit=1", "outbox.fast-path.threads=2")
			.run((context) -> await().untilAsserted(() -> assertThat(outboxThreads()).extracting(Thread::getName)
				.contains("outbox-fast-path-1", "outbox-fast-path-2")));
	}

	private static List<Thread> outboxThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("outbox-"))
			.toList();
	}

}
