package dev.outboxstarter.core;

import dev.outboxstarter.OutboxConfigurationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link OutboxConfigurationException} the way Spring Boot reports its own start-up
 * failures: a description and an action.
 */
class OutboxConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<OutboxConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, OutboxConfigurationException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

}
