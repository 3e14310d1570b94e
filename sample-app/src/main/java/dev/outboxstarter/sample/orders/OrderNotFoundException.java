package dev.outboxstarter.sample.orders;

import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * No order has the id asked for.
 */
@ResponseStatus(HttpStatus.NOT_FOUND)
public class OrderNotFoundException extends RuntimeException {

	OrderNotFoundException(UUID id) {
		super("No order " + id);
	}

}
