package dev.outboxstarter.modulith;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxRoute;

import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.modulith.events.EventExternalizationConfiguration;

/**
 * Writes every event Modulith's {@link EventExternalizationConfiguration} selects to the outbox, in
 * the transaction that publishes it: the mapped event as the payload, on the route of its routing
 * target, with the configuration's headers for it. The outbox publishes it once that transaction has
 * committed, and never if it rolls back.
 */
final class ExternalizedEventCapture implements ApplicationListener<PayloadApplicationEvent<?>> {

	private final EventExternalizationConfiguration configuration;

	private final ExternalizationRoutes routes;

	private final Outbox outbox;

	ExternalizedEventCapture(EventExternalizationConfiguration configuration, ExternalizationRoutes routes,
			Outbox outbox) {
		this.configuration = configuration;
		this.routes = routes;
		this.outbox = outbox;
	}

	@Override
	public void onApplicationEvent(PayloadApplicationEvent<?> published) {
		Object event = published.getPayload();
		if (!this.configuration.supports(event)) {
			return;
		}
		// Like Modulith's broker integrations: the target's expressions and the headers are those of
		// what is sent, the mapped event.
		Object payload = this.configuration.map(event);
		OutboxRoute route = this.routes.routeOf(event, this.configuration.determineTarget(event), payload);
		this.outbox.publish(route, payload, headers(this.configuration.getHeadersFor(payload)));
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
