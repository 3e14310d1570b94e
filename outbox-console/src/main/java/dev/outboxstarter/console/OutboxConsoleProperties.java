package dev.outboxstarter.console;

import java.time.Duration;
import java.util.Set;

import dev.outboxstarter.OutboxConfigurationException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who may act in the console, and how much of the outbox's recent history it keeps. The endpoint's
 * {@code access} sits beside these, as for any endpoint; which values of an event it shows is the
 * {@code outbox} endpoint's {@code show-values} rule.
 */
@ConfigurationProperties("management.endpoint.outboxconsole")
class OutboxConsoleProperties {

	private static final int MAX_SAMPLES = 10_000;

	/**
	 * Roles a user needs to retry, discard and republish events in the console, once its access is
	 * 'unrestricted'. When empty, any authenticated user may; an anonymous one never does.
	 */
	private final Set<String> operatorRoles;

	/**
	 * How often the console samples the outbox's meters for its charts.
	 */
	private final Duration sampleInterval;

	/**
	 * How far back the charts go: the console keeps this much of its samples in memory.
	 */
	private final Duration history;

	/**
	 * Most events one republish copies, the oldest first; the console says when a range had more.
	 */
	private final int republishLimit;

	OutboxConsoleProperties(@Nullable Set<String> operatorRoles, @DefaultValue("10s") Duration sampleInterval,
			@DefaultValue("1h") Duration history, @DefaultValue("10000") int republishLimit) {
		if (sampleInterval.isNegative() || sampleInterval.isZero()) {
			throw invalid("sample-interval", sampleInterval + " is not a positive duration", "e.g. 10s");
		}
		if (history.compareTo(sampleInterval) < 0 || history.dividedBy(sampleInterval) > MAX_SAMPLES) {
			throw invalid("history", history + " is not between one and " + MAX_SAMPLES + " sample intervals ("
					+ sampleInterval + ")", "shorten the history or lengthen sample-interval");
		}
		if (republishLimit < 1) {
			throw invalid("republish-limit", republishLimit + " is not a positive number", "e.g. 10000");
		}
		this.operatorRoles = (operatorRoles != null) ? Set.copyOf(operatorRoles) : Set.of();
		this.sampleInterval = sampleInterval;
		this.history = history;
		this.republishLimit = republishLimit;
	}

	private static OutboxConfigurationException invalid(String property, String problem, String action) {
		return new OutboxConfigurationException("management.endpoint.outboxconsole." + property + ": " + problem,
				"Set management.endpoint.outboxconsole." + property + " accordingly: " + action);
	}

	Set<String> getOperatorRoles() {
		return this.operatorRoles;
	}

	Duration getSampleInterval() {
		return this.sampleInterval;
	}

	Duration getHistory() {
		return this.history;
	}

	int getRepublishLimit() {
		return this.republishLimit;
	}

	int samples() {
		return (int) this.history.dividedBy(this.sampleInterval);
	}

}
