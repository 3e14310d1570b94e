package dev.outboxstarter.it.tenantschemas;

/**
 * Thrown by the service after it saved a booking, so that its transaction rolls back as an ordinary
 * business outcome.
 */
public class BookingRejected extends RuntimeException {

	public BookingRejected() {
		super("booking rejected after save", null, false, false);
	}

}
