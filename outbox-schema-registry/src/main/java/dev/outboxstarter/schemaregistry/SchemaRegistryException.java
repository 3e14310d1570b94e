package dev.outboxstarter.schemaregistry;

/**
 * An event could not be written in its schema registry format: the registry refused its schema, could
 * not be reached in time for a schema it had not served yet, or the event is not of a type the format
 * writes. The message says which event, which subject and what to do. The outbox refuses the event, so
 * the business transaction does not commit without it.
 *
 * @since 0.1.0
 */
public class SchemaRegistryException extends RuntimeException {

	/**
	 * Creates the exception.
	 * @param message what was refused, why, and what to do
	 * @param cause the serializer's or the registry's exception
	 */
	public SchemaRegistryException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * Creates the exception.
	 * @param message what was refused, why, and what to do
	 */
	public SchemaRegistryException(String message) {
		super(message);
	}

}
