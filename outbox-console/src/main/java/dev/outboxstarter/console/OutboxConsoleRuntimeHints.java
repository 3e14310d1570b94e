package dev.outboxstarter.console;

import dev.outboxstarter.console.OutboxConsoleEndpoint.EventsPage;
import dev.outboxstarter.console.OutboxConsoleEndpoint.Overview;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What the console needs in a native image beyond what the actuator declares for its endpoint: the page,
 * read from the classpath, and the answers of the read operation that returns either of two types,
 * which the operation's signature does not name.
 */
class OutboxConsoleRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern("dev/outboxstarter/console/console.html");
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), Overview.class,
				EventsPage.class);
	}

}
