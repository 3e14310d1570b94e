package dev.outboxstarter.modulith;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxRoute;

import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.ExternalizationMode;
import org.springframework.modulith.events.RoutingTarget;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes every event Modulith's {@link EventExternalizationConfiguration} selects to the outbox, in
 * the transaction that publishes it: the mapped event as the payload, on the route of its routing
 * target, with the configuration's headers for it. The outbox publishes it once that transaction has
 * committed, and never if it rolls back.
 * <p>
 * An event the outbox's own rules route as well is refused: the outbox captures it when it is published
 * anyway, so it would be written twice, with two message ids that no consumer could tell apart as one
 * event. Modulith's configuration selects events by instance, so this is known only when one is raised.
 * A refused event keeps its transaction from committing.
 */
final class ExternalizedEventCapture implements ApplicationListener<PayloadApplicationEvent<?>> {

	private final EventExternalizationConfiguration configuration;

	private final ExternalizationRoutes routes;

	private final OutboxOwnRoutes ownRoutes;

	private final Outbox outbox;

	ExternalizedEventCapture(EventExternalizationConfiguration configuration, ExternalizationRoutes routes,
			OutboxOwnRoutes ownRoutes, Outbox outbox) {
		this.configuration = configuration;
		this.routes = routes;
		this.ownRoutes = ownRoutes;
		this.outbox = outbox;
	}

	@Override
	public void onApplicationEvent(PayloadApplicationEvent<?> published) {
		Object event = published.getPayload();
		if (!this.configuration.supports(event)) {
			return;
		}
		RoutingTarget target = this.configuration.determineTarget(event);
		try {
			refuseOutboxEvent(event, target);
			// Like Modulith's broker integrations: the target's expressions and the headers are those of
			// what is sent, the mapped event.
			Object payload = this.configuration.map(event);
			OutboxRoute route = this.routes.routeOf(event, target, payload);
			this.outbox.publish(route, payload, headers(this.configuration.getHeadersFor(payload)));
		}
		catch (OutboxCaptureException ex) {
			refuseCommit(ex);
			throw ex;
		}
	}

	/**
	 * Keeps the transaction from committing without the refused event, as the outbox does with the
	 * events it refuses, even if the code that raised it catches the exception.
	 */
	private static void refuseCommit(OutboxCaptureException refusal) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void beforeCommit(boolean readOnly) {
					throw refusal;
				}

			});
		}
	}

	private void refuseOutboxEvent(Object event, RoutingTarget target) {
		List<String> own = this.ownRoutes.describe(event);
		if (own.isEmpty()) {
			return;
		}
		String type = event.getClass().getName();
		String key = target.getKey();
		String externalized = "'" + target.getTarget() + "'" + ((key != null) ? " keyed by '" + key + "'" : "");
		throw new OutboxCaptureException("Event " + type + " is externalized by Spring Modulith ("
				+ ExternalizationMode.PROPERTY + "=outbox) to " + externalized
				+ " and routed by the outbox's own rules to " + String.join(", ", own)
				+ ": it would be written to the outbox twice, with two message ids. Route it one way: remove its "
				+ "@OutboxEvent, its outbox.routes[" + type + "] entry or its OutboxEventRouter route to keep "
				+ "Modulith's, or leave it out of the EventExternalizationConfiguration to keep the outbox's");
	}

	private static Map<String, String> headers(Map<String, Object> values) {
		if (values.isEmpty()) {
			return Map.of();
		}
		Map<String, String> headers = new LinkedHashMap<>();
		values.forEach((name, value) -> {
			if (value != null) {
				headers.put(name, value.toString());
			}
		});
		return headers;
	}

	@Override
	public boolean supportsAsyncExecution() {
		// The event is written in the publisher's transaction.
		return false;
	}

}
