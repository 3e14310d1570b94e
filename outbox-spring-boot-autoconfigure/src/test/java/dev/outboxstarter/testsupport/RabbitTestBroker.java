package dev.outboxstarter.testsupport;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import com.rabbitmq.client.impl.AMQImpl;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The RabbitMQ broker the tests run against: the local one on 127.0.0.1:5672 (guest/guest). Test
 * set-up and assertions use connections of their own, never the application's.
 */
public final class RabbitTestBroker {

	public static final String HOST = "127.0.0.1";

	public static final int PORT = 5672;

	private RabbitTestBroker() {
	}

	/**
	 * Points the application of a {@code @SpringBootTest} at the broker, or at a port that forwards to
	 * it.
	 * @param registry the test's dynamic properties
	 * @param port the port to connect to
	 */
	public static void register(DynamicPropertyRegistry registry, int port) {
		registry.add("spring.rabbitmq.host", () -> HOST);
		registry.add("spring.rabbitmq.port", () -> port);
		registry.add("spring.rabbitmq.username", () -> "guest");
		registry.add("spring.rabbitmq.password", () -> "guest");
	}

	/**
	 * The broker's address, for a {@link TcpForwarder} in front of it.
	 * @return {@code host:port}
	 */
	public static String address() {
		return HOST + ":" + PORT;
	}

	/**
	 * What a {@link TcpForwarder} in front of the broker passes on to the client: everything up to the
	 * first publisher confirm ({@code basic.ack} or {@code basic.nack}), and nothing from there on. The
	 * client connects, opens channels and publishes as usual, the broker takes the messages, but their
	 * confirms never arrive: they are pending until the connection is cut.
	 * @return the relay, for {@link TcpForwarder#open(TcpForwarder.Relay)}
	 */
	public static TcpForwarder.Relay withholdingPublisherConfirms() {
		return (in, out) -> {
			// AMQP 0-9-1 frames: type (1 = method), channel, payload size, payload, frame end. A method's
			// payload starts with its class id and method id.
			DataInputStream frames = new DataInputStream(in);
			boolean withholding = false;
			while (true) {
				byte[] header = new byte[7];
				try {
					frames.readFully(header);
				}
				catch (EOFException ex) {
					return;
				}
				int type = header[0];
				int size = ByteBuffer.wrap(header, 3, 4).getInt();
				byte[] payloadAndEnd = new byte[size + 1];
				frames.readFully(payloadAndEnd);
				if (type == AMQP.FRAME_METHOD && size >= 4) {
					ByteBuffer method = ByteBuffer.wrap(payloadAndEnd, 0, 4);
					int classId = method.getShort();
					int methodId = method.getShort();
					withholding |= classId == AMQImpl.Basic.INDEX
							&& (methodId == AMQImpl.Basic.Ack.INDEX || methodId == AMQImpl.Basic.Nack.INDEX);
				}
				if (!withholding) {
					out.write(header);
					out.write(payloadAndEnd);
					out.flush();
				}
			}
		};
	}

	/**
	 * Declares an exchange with these settings, or checks that one exists with them.
	 * @param name the exchange name
	 * @param type its type
	 * @param durable whether it is durable
	 */
	public static void declareExchange(String name, String type, boolean durable) {
		run((channel) -> channel.exchangeDeclare(name, type, durable));
	}

	/**
	 * Whether an exchange exists.
	 * @param name the exchange name
	 * @return whether the broker knows it
	 */
	public static boolean exchangeExists(String name) {
		try {
			run((channel) -> channel.exchangeDeclarePassive(name));
			return true;
		}
		catch (IllegalStateException ex) {
			if (ex.getCause() != null && ex.getCause().getCause() instanceof ShutdownSignalException signal
					&& signal.getReason() instanceof AMQP.Channel.Close close && close.getReplyCode() == 404) {
				return false;
			}
			throw ex;
		}
	}

	/**
	 * Deletes an exchange if it exists.
	 * @param name the exchange name
	 */
	public static void deleteExchange(String name) {
		run((channel) -> channel.exchangeDelete(name));
	}

	/**
	 * Deletes a queue if it exists.
	 * @param name the queue name
	 */
	public static void deleteQueue(String name) {
		run((channel) -> channel.queueDelete(name));
	}

	/**
	 * Declares a queue, bound to an exchange unless the exchange is the default one, and records what
	 * arrives in it. The queue outlives connections (so a consumer that reconnects loses nothing) and
	 * expires a while after the test run, should the test not delete it.
	 * @param queue the queue name
	 * @param exchange the exchange to bind to, empty for none (the default exchange)
	 * @param routingKey the binding key
	 * @param arguments further queue arguments
	 * @return the recorder; close it to delete the queue
	 */
	public static QueueRecorder record(String queue, String exchange, String routingKey, Map<String, Object> arguments) {
		Map<String, Object> args = new HashMap<>(arguments);
		args.putIfAbsent("x-expires", 600_000);
		run((channel) -> {
			channel.queueDeclare(queue, false, false, false, args);
			if (!exchange.isEmpty()) {
				channel.queueBind(queue, exchange, routingKey);
			}
		});
		return new QueueRecorder(queue);
	}

	/**
	 * A queue name no other test run uses.
	 * @param prefix a readable prefix
	 * @return the name
	 */
	public static String uniqueQueue(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	private static void run(ChannelAction action) {
		ConnectionFactory factory = new ConnectionFactory();
		factory.setHost(HOST);
		factory.setPort(PORT);
		factory.setUsername("guest");
		factory.setPassword("guest");
		try (Connection connection = factory.newConnection("outbox-test-setup")) {
			Channel channel = connection.createChannel();
			action.run(channel);
		}
		catch (IOException | TimeoutException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private interface ChannelAction {

		void run(Channel channel) throws IOException;

	}

	/**
	 * What arrived in a queue, as a consumer receives it, on a connection straight to the broker.
	 */
	public static final class QueueRecorder implements AutoCloseable {

		private final String queue;

		private final CachingConnectionFactory connectionFactory;

		private final RabbitTemplate template;

		private final List<Message> received = new ArrayList<>();

		QueueRecorder(String queue) {
			this.queue = queue;
			this.connectionFactory = new CachingConnectionFactory(HOST, PORT);
			this.connectionFactory.setUsername("guest");
			this.connectionFactory.setPassword("guest");
			this.connectionFactory.setConnectionNameStrategy((factory) -> "outbox-test-consumer");
			this.template = new RabbitTemplate(this.connectionFactory);
		}

		public String queue() {
			return this.queue;
		}

		/**
		 * Takes every message waiting in the queue and returns everything received so far, in arrival
		 * order.
		 * @return the messages so far
		 */
		public synchronized List<Message> poll() {
			for (Message message = this.template.receive(this.queue); message != null; message = this.template
				.receive(this.queue)) {
				this.received.add(message);
			}
			return List.copyOf(this.received);
		}

		/**
		 * Deletes the queue and closes the connection.
		 */
		@Override
		public void close() {
			try {
				deleteQueue(this.queue);
			}
			finally {
				this.connectionFactory.destroy();
			}
		}

	}

}
