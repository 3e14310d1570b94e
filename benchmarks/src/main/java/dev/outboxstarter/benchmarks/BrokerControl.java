package dev.outboxstarter.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import dev.outboxstarter.testsupport.KafkaBrokerProcess;

/**
 * Lets a contender JVM stop and start the Kafka broker, which is a process of the suite's: the
 * contender prints a request line, the suite carries it out and answers on the contender's standard
 * input. The drain after an outage of the running broker needs it, since a warm producer's
 * connections go to the broker itself and a forwarder in front of the bootstrap address cannot cut
 * them.
 */
public final class BrokerControl {

	static final String REQUEST = "BROKER ";

	private static final String DONE = "done";

	private static final BufferedReader answers = new BufferedReader(
			new InputStreamReader(System.in, StandardCharsets.UTF_8));

	private BrokerControl() {
	}

	/**
	 * In the contender JVM: stops the broker and returns once its process has exited.
	 */
	public static void stopBroker() {
		request("stop");
	}

	/**
	 * In the contender JVM: starts the broker again and returns once it answers.
	 */
	public static void startBroker() {
		request("start");
	}

	private static synchronized void request(String action) {
		System.out.println(REQUEST + action);
		System.out.flush();
		try {
			String answer = answers.readLine();
			if (!DONE.equals(answer)) {
				throw new IllegalStateException("The suite did not " + action + " the broker: " + answer);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * In the suite: carries out a contender's request and answers it.
	 * @param line the request line the contender printed
	 * @param broker the broker
	 * @param contenderInput the contender's standard input
	 */
	static void carryOut(String line, KafkaBrokerProcess broker, OutputStream contenderInput) throws IOException {
		String action = line.substring(REQUEST.length()).trim();
		switch (action) {
			case "stop" -> broker.stop();
			case "start" -> broker.startAgain();
			default -> throw new IllegalArgumentException("Unknown broker request '" + line + "'");
		}
		contenderInput.write((DONE + "\n").getBytes(StandardCharsets.UTF_8));
		contenderInput.flush();
	}

}
