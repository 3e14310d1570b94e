package dev.outboxstarter.it.twodatabases;

/**
 * Thrown by a service after it saved an aggregate, so that its transaction rolls back as an ordinary
 * business outcome.
 */
public class BusinessRuleViolated extends RuntimeException {

	public BusinessRuleViolated() {
		super("business rule violated after save", null, false, false);
	}

}
