package dev.outboxstarter.amqp;

import java.util.List;

import com.rabbitmq.client.Channel;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.amqp.core.Exchange;
import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.ConnectionListener;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;

/**
 * Declares the exchanges the outbox was told to declare ({@code outbox.rabbit.exchanges}) and nothing
 * else, every time the connection factory opens a connection, as Spring AMQP's {@code RabbitAdmin}
 * does: before the first message is published on it, and again after the broker was restarted (which
 * loses non-durable exchanges).
 * <p>
 * Declaring on connection rather than at start-up lets the application start while the broker is
 * down. A declaration that fails (for example an existing exchange of another type) is logged and
 * does not stop publishing. Queues and bindings are the application's business.
 * <p>
 * It declares on a channel of its own rather than through a {@code RabbitAdmin}, on purpose: a
 * {@code RabbitAdmin} with access to the application context also declares every {@code Declarable}
 * bean of the application, which the outbox must not do behind the application's back. If the
 * application binds its own queues to one of these exchanges, it should declare the exchange too
 * (with the same settings): the order in which connection listeners run is not defined.
 */
class RabbitExchangeDeclarer implements ConnectionListener, InitializingBean, DisposableBean {

	private static final Log logger = LogFactory.getLog(RabbitExchangeDeclarer.class);

	private final ConnectionFactory connectionFactory;

	private final List<Exchange> exchanges;

	/**
	 * @param connectionFactory the factory whose connections get the exchanges
	 * @param exchanges the exchanges to declare; none means nothing is declared
	 */
	public RabbitExchangeDeclarer(ConnectionFactory connectionFactory, List<Exchange> exchanges) {
		this.connectionFactory = connectionFactory;
		this.exchanges = List.copyOf(exchanges);
	}

	/**
	 * Starts declaring on every new connection, and at once on a connection that is already open.
	 */
	@Override
	public void afterPropertiesSet() {
		if (!this.exchanges.isEmpty()) {
			this.connectionFactory.addConnectionListener(this);
		}
	}

	@Override
	public void destroy() {
		if (!this.exchanges.isEmpty()) {
			this.connectionFactory.removeConnectionListener(this);
		}
	}

	/**
	 * The exchanges this declarer declares.
	 * @return the exchanges
	 */
	public List<Exchange> getExchanges() {
		return this.exchanges;
	}

	@Override
	public void onCreate(Connection connection) {
		for (Exchange exchange : this.exchanges) {
			// A channel per exchange: a refused declaration closes its channel.
			try (Channel channel = connection.createChannel(false)) {
				channel.exchangeDeclare(exchange.getName(), exchange.getType(), exchange.isDurable(),
						exchange.isAutoDelete(), exchange.isInternal(), exchange.getArguments());
			}
			catch (Exception ex) {
				logger.error("Could not declare the " + exchange.getType() + " exchange '" + exchange.getName()
						+ "' listed in outbox.rabbit.exchanges; messages routed to it may be refused", ex);
			}
		}
	}

}
