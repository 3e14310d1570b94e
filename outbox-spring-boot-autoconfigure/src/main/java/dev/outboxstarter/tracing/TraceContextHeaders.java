package dev.outboxstarter.tracing;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.outboxstarter.spi.EventHeadersContributor;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

/**
 * Stores the trace context current when an event is captured in the event's headers, in the
 * application's propagation format (W3C {@code traceparent} by default), and replaces it with the
 * publishing span's context when the event is sent.
 */
class TraceContextHeaders implements EventHeadersContributor {

	private final Tracer tracer;

	private final Propagator propagator;

	public TraceContextHeaders(Tracer tracer, Propagator propagator) {
		this.tracer = tracer;
		this.propagator = propagator;
	}

	@Override
	public void contribute(Map<String, String> headers) {
		TraceContext context = this.tracer.currentTraceContext().context();
		if (context != null) {
			this.propagator.inject(context, headers, Map::put);
		}
	}

	/**
	 * The headers to send: the stored ones, with their trace context replaced by the current one (the
	 * publishing span's).
	 * @param stored the headers stored with the event
	 * @return the headers to send
	 */
	public Map<String, String> continued(Map<String, String> stored) {
		Map<String, String> headers = new LinkedHashMap<>(stored);
		this.propagator.fields().forEach(headers::remove);
		contribute(headers);
		return headers;
	}

}
