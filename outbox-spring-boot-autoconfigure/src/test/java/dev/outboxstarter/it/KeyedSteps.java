package dev.outboxstarter.it;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHandler;

/**
 * Numbered steps per key, handled in-process; a poisoned step fails until it is healed.
 */
class KeyedSteps {

	final List<String> handled = new CopyOnWriteArrayList<>();

	final Set<String> healed = ConcurrentHashMap.newKeySet();

	@OutboxHandler("steps")
	void handle(Step step) {
		if (step.poisoned() && !this.healed.contains(step.key())) {
			throw new IllegalStateException("step " + step.label() + " is poisoned");
		}
		this.handled.add(step.label());
	}

	List<String> handledOf(String key) {
		return this.handled.stream().filter((label) -> label.startsWith(key + "#")).toList();
	}

	@OutboxEvent(transport = "local", destination = "steps", key = "key")
	record Step(String key, int number, boolean poisoned) {

		String label() {
			return this.key + "#" + this.number;
		}

	}

}
