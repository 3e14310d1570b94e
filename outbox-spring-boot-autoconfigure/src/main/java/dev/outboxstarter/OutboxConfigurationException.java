package dev.outboxstarter;

/**
 * The outbox cannot start as configured. Spring Boot reports it as a failure analysis: what is wrong
 * (the description) and what to change (the action), without a stack trace.
 *
 * @since 0.1.0
 */
public class OutboxConfigurationException extends IllegalStateException {

	private final String description;

	private final String action;

	/**
	 * Creates the exception.
	 * @param description what is wrong, naming the setting, bean or method at fault
	 * @param action what to change so that the outbox starts
	 */
	public OutboxConfigurationException(String description, String action) {
		super(description + ". " + action);
		this.description = description;
		this.action = action;
	}

	/**
	 * What is wrong.
	 * @return the description
	 */
	public String getDescription() {
		return this.description;
	}

	/**
	 * What to change.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
