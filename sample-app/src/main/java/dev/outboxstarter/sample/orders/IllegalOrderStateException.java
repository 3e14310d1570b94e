package dev.outboxstarter.sample.orders;

import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * An order cannot do what was asked in the state it is in. Thrown inside the transaction, so the
 * transaction rolls back and no event is published.
 */
@ResponseStatus(HttpStatus.CONFLICT)
public class IllegalOrderStateException extends RuntimeException {

	IllegalOrderStateException(UUID id, OrderStatus status, String action) {
		super("Cannot " + action + " order " + id + ": it is " + status);
	}

}
