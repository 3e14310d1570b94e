package dev.outboxstarter.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports for servers a test closes and opens again on the same port (a forwarder, a broker process):
 * free when taken, below the ports the system gives outgoing connections (from 32768 on Linux), so
 * that none of the application's own connections takes one while its server is closed. No port is
 * handed out twice in one JVM.
 */
public final class FreePorts {

	private static final int FIRST = 20000;

	private static final int LAST = 32000;

	private static final Random random = new Random();

	private static final Set<Integer> taken = ConcurrentHashMap.newKeySet();

	private FreePorts() {
	}

	/**
	 * A port nothing listens on now, and no other caller of this JVM was given.
	 * @return the port
	 */
	public static int take() {
		for (int tries = 0; tries < 1000; tries++) {
			int port = FIRST + random.nextInt(LAST - FIRST);
			if (!taken.add(port)) {
				continue;
			}
			try (ServerSocket socket = new ServerSocket()) {
				socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
				return port;
			}
			catch (IOException ex) {
				// In use: try another.
			}
		}
		throw new IllegalStateException("No free port between " + FIRST + " and " + LAST);
	}

}
