package dev.outboxstarter.console;

import dev.outboxstarter.console.OutboxConsoleEndpoint.EventsPage;
import dev.outboxstarter.console.OutboxConsoleEndpoint.Overview;
import dev.outboxstarter.console.OutboxConsoleEndpoint.Sample;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a native image the console finds its page, and its overview and pages of events, which its read
 * operation returns as an {@code Object}, are written as JSON, down to the samples of its charts.
 */
class OutboxConsoleRuntimeHintsTests {

	@Test
	void pageIsAResourceAndTheAnswersOfTheViewOperationBindReflectively() {
		RuntimeHints hints = new RuntimeHints();
		new OutboxConsoleRuntimeHints().registerHints(hints, getClass().getClassLoader());

		assertThat(RuntimeHintsPredicates.resource().forResource("dev/outboxstarter/console/console.html"))
			.accepts(hints);
		for (Class<?> type : new Class<?>[] { Overview.class, EventsPage.class, Sample.class }) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onType(type)
				.withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).as(type.getSimpleName())
				.accepts(hints);
		}
	}

}
