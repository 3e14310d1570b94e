package dev.outboxstarter.testsupport;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;

/**
 * Why a transport could not publish a message, whichever way it says so.
 */
public final class SendFailure {

	private SendFailure() {
	}

	/**
	 * Sends a message that must fail and returns the failure.
	 * @param transport the transport
	 * @param message the message
	 * @return what {@code send} threw, or what its future failed with within 30 seconds
	 * @throws AssertionError when the message is acknowledged
	 * @throws Exception when the future neither fails nor completes in time
	 */
	public static Throwable of(OutboxTransport transport, OutboxMessage message) throws Exception {
		try {
			transport.send(message).get(30, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		catch (RuntimeException ex) {
			return ex;
		}
		throw new AssertionError("Message " + message.id() + " was acknowledged");
	}

}
