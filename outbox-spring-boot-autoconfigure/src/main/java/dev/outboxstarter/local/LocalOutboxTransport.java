package dev.outboxstarter.local;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.OutboxHandler;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The {@code local} transport: hands each event to the {@link OutboxHandler} method named by its
 * destination, in a new transaction of the application's transaction manager.
 * <p>
 * Handlers run one at a time on a thread of their own, in the order the outbox sends them (so per-key
 * order holds), and outside the outbox's claim transaction, whose locks and connection stay out of the
 * handler's way.
 * <p>
 * The events waiting for the handler thread are bounded. A handler slower than the publish timeout
 * leaves its batch's last events waiting there after the batch stopped waiting for them; the outbox
 * does not send those again, but the batches after it send new ones. Once the queue is full,
 * {@link #send} refuses with a {@link RejectedExecutionException}: the outbox leaves that event and
 * the batch's other local events pending, without counting an attempt, and sends them again once a
 * retry backoff has passed. A slow handler is not an unavailable transport.
 */
class LocalOutboxTransport implements OutboxTransport, DisposableBean {

	/** The transport name events are routed to. */
	public static final String NAME = "local";

	private final LocalHandlerMethods handlers;

	private final ObjectProvider<PlatformTransactionManager> transactionManager;

	private final JsonMapper json;

	private final ThreadPoolExecutor executor;

	private volatile TransactionTemplate transactionTemplate;

	/**
	 * Creates the transport.
	 * @param handlers the handler methods
	 * @param transactionManager the application's transaction manager (the unique or primary one)
	 * @param json reads events back from their JSON
	 * @param capacity the most events that wait for the handler thread
	 */
	public LocalOutboxTransport(LocalHandlerMethods handlers, ObjectProvider<PlatformTransactionManager> transactionManager,
			JsonMapper json, int capacity) {
		this.handlers = handlers;
		this.transactionManager = transactionManager;
		this.json = json;
		this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(capacity),
				(task) -> {
					Thread thread = new Thread(task, "outbox-local");
					thread.setDaemon(true);
					return thread;
				});
	}

	@Override
	public String name() {
		return NAME;
	}

	/**
	 * Queues the event for its handler.
	 * @throws RejectedExecutionException when the queue is full
	 */
	@Override
	public CompletableFuture<?> send(OutboxMessage message) {
		LocalHandlerMethod handler = this.handlers.get(message.destination());
		if (handler == null) {
			return CompletableFuture.failedFuture(new IllegalStateException(
					"No @OutboxHandler(\"" + message.destination() + "\") method in this application"));
		}
		return CompletableFuture.runAsync(() -> handle(handler, message), this.executor);
	}

	private void handle(LocalHandlerMethod handler, OutboxMessage message) {
		Object event = this.json.readValue(message.payload(), this.json.constructType(handler.eventType()));
		transactions().executeWithoutResult((status) -> handler.invoke(event, message));
	}

	private TransactionTemplate transactions() {
		TransactionTemplate template = this.transactionTemplate;
		if (template == null) {
			PlatformTransactionManager manager = this.transactionManager.getIfUnique();
			if (manager == null) {
				throw new IllegalStateException("@OutboxHandler methods run in a transaction, but the application has "
						+ "no unique (or primary) PlatformTransactionManager");
			}
			template = new TransactionTemplate(manager);
			template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
			this.transactionTemplate = template;
		}
		return template;
	}

	@Override
	public void destroy() {
		this.executor.shutdownNow();
	}

}
