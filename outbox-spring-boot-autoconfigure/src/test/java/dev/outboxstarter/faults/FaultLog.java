package dev.outboxstarter.faults;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the instances of one run reported, and the faults the orchestrator injected, with their times.
 */
final class FaultLog {

	private final List<Commit> commits = new CopyOnWriteArrayList<>();

	private final Set<String> rolledBack = ConcurrentHashMap.newKeySet();

	private final Set<String> poison = ConcurrentHashMap.newKeySet();

	private final List<String> errors = new CopyOnWriteArrayList<>();

	private final List<Fault> faults = new CopyOnWriteArrayList<>();

	private final AtomicInteger committed = new AtomicInteger();

	void report(String instance, String report) {
		String[] parts = report.split(" ", 3);
		switch (parts[0]) {
			case "COMMIT" -> {
				this.commits.add(new Commit(instance, Long.parseLong(parts[1]), Long.parseLong(parts[2])));
				this.committed.incrementAndGet();
			}
			case "ROLLBACK" -> this.rolledBack.add(parts[1]);
			case "POISON" -> this.poison.add(parts[1]);
			case "ERROR" -> this.errors.add(instance + " " + report);
			default -> {
			}
		}
	}

	int committed() {
		return this.committed.get();
	}

	List<Commit> commits() {
		return new ArrayList<>(this.commits);
	}

	Set<String> rolledBack() {
		return Set.copyOf(this.rolledBack);
	}

	Set<String> poison() {
		return Set.copyOf(this.poison);
	}

	List<String> errors() {
		return List.copyOf(this.errors);
	}

	Fault fault(String description) {
		Fault fault = new Fault(description, Instant.now());
		this.faults.add(fault);
		return fault;
	}

	List<Fault> faults() {
		return List.copyOf(this.faults);
	}

	record Commit(String instance, long epochMillis, long latencyMicros) {
	}

	static final class Fault {

		private final String description;

		private final Instant started;

		private volatile Instant ended;

		private volatile String detail = "";

		Fault(String description, Instant started) {
			this.description = description;
			this.started = started;
		}

		Fault end(String detail) {
			this.ended = Instant.now();
			this.detail = detail;
			return this;
		}

		Instant started() {
			return this.started;
		}

		Instant ended() {
			return this.ended;
		}

		@Override
		public String toString() {
			return this.started + " .. " + this.ended + "  " + this.description + (this.detail.isEmpty() ? "" : " (" + this.detail + ")");
		}

	}

}
