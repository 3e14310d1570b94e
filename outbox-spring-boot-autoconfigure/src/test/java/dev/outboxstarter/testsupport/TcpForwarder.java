package dev.outboxstarter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP port that forwards to another address while it is open and refuses connections while it is
 * closed: a broker address that can be made unreachable and reachable again.
 */
public final class TcpForwarder implements AutoCloseable {

	private final int port;

	private final String targetHost;

	private final int targetPort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile ServerSocket server;

	private volatile Relay fromTarget = Relay.ALL;

	private volatile Thread acceptor;

	/**
	 * @param port the port to listen on
	 * @param target {@code host:port} to forward to
	 */
	private TcpForwarder(int port, String target) {
		this.port = port;
		int colon = target.lastIndexOf(':');
		this.targetHost = target.substring(0, colon);
		this.targetPort = Integer.parseInt(target.substring(colon + 1));
	}

	/**
	 * A forwarder, closed, on a port nothing listens on right now (see {@link FreePorts}).
	 * @param target {@code host:port} to forward to once opened
	 * @return the forwarder
	 */
	public static TcpForwarder onFreePort(String target) {
		return new TcpForwarder(FreePorts.take(), target);
	}

	/**
	 * The port clients connect to.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * The address to give clients.
	 * @return {@code 127.0.0.1:port}
	 */
	public String address() {
		return "127.0.0.1:" + this.port;
	}

	/**
	 * Starts accepting and forwarding connections, unless it does already.
	 */
	public synchronized void open() {
		open(Relay.ALL);
	}

	/**
	 * Starts accepting connections, unless it does already, and forwards what the target sends on
	 * those it accepts from now on through the given relay; what clients send is forwarded as it is.
	 * @param fromTarget what to pass on of what the target sends
	 */
	public synchronized void open(Relay fromTarget) {
		this.fromTarget = fromTarget;
		if (this.server != null) {
			return;
		}
		try {
			ServerSocket socket = new ServerSocket();
			socket.setReuseAddress(true);
			socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port));
			this.server = socket;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread acceptor = new Thread(this::accept, "tcp-forwarder-" + this.port);
		acceptor.setDaemon(true);
		acceptor.start();
		this.acceptor = acceptor;
	}

	/**
	 * Stops accepting and cuts every forwarded connection.
	 */
	@Override
	public synchronized void close() {
		ServerSocket socket = this.server;
		this.server = null;
		closeQuietly(socket);
		awaitAcceptorEnd();
		this.sockets.forEach(TcpForwarder::closeQuietly);
		this.sockets.clear();
	}

	/**
	 * Waits until the thread that accepted connections has left {@code accept}: until then the system
	 * keeps the port listening, and opening the forwarder again at once could not bind it.
	 */
	private void awaitAcceptorEnd() {
		Thread thread = this.acceptor;
		this.acceptor = null;
		if (thread == null) {
			return;
		}
		try {
			thread.join(10_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void accept() {
		ServerSocket socket = this.server;
		while (socket != null && !socket.isClosed()) {
			try {
				Socket client = socket.accept();
				Socket target = new Socket(this.targetHost, this.targetPort);
				this.sockets.add(client);
				this.sockets.add(target);
				pump(client, target, Relay.ALL);
				pump(target, client, this.fromTarget);
			}
			catch (IOException ex) {
				// Closed, or the target refused: the client sees its connection dropped.
			}
		}
	}

	private void pump(Socket from, Socket to, Relay relay) {
		Thread thread = new Thread(() -> {
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				relay.copy(in, out);
			}
			catch (IOException ex) {
				// Connection cut.
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "tcp-forwarder-pump");
		thread.setDaemon(true);
		thread.start();
	}

	/**
	 * Copies one direction of a forwarded connection until it ends, passing on what it chooses to.
	 */
	@FunctionalInterface
	public interface Relay {

		/** Passes everything on as it arrives. */
		Relay ALL = (in, out) -> {
			byte[] buffer = new byte[16384];
			int read;
			while ((read = in.read(buffer)) >= 0) {
				out.write(buffer, 0, read);
				out.flush();
			}
		};

		/**
		 * Reads until the end of the stream, writing what it passes on.
		 * @param in what the sender sent
		 * @param out the receiver
		 * @throws IOException when the connection is cut
		 */
		void copy(InputStream in, OutputStream out) throws IOException;

	}

	private static void closeQuietly(AutoCloseable closeable) {
		if (closeable != null) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// Already closed.
			}
		}
	}

}
