package dev.outboxstarter.actuate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.EventCount;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.PausedDestination;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.operations.TenantsReading;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code outbox} actuator endpoint: what is in the table, and the actions an operator takes on
 * events that are stuck. Over HTTP:
 * <ul>
 * <li>{@code GET /actuator/outbox}: counts by status and transport, the due and the scheduled (delayed,
 * not yet due) events, the oldest pending event's age, and the transports and destinations this
 * instance cannot publish to for now;</li>
 * <li>{@code GET /actuator/outbox/dead} or {@code /pending}, with {@code page} and {@code size}: the
 * events, oldest first, a delayed one with its {@code deliverAt} (their payload, headers, message key, aggregate id and last error only as
 * {@code management.endpoint.outbox.show-values} allows);</li>
 * <li>{@code POST /actuator/outbox/{id}}: retries one DEAD event;</li>
 * <li>{@code POST /actuator/outbox}, optionally with {@code {"eventType": "…"}}: retries every DEAD
 * event (of that type);</li>
 * <li>{@code DELETE /actuator/outbox/{id}}: discards one pending or DEAD event.</li>
 * </ul>
 * The reads show the primary data source's outbox; with outboxes on other data sources, their names are
 * listed in the summary and {@code ?outbox=<name>} reads one of them. Retries reach every outbox.
 * Its default access is read-only: the retry and discard operations exist only where the application
 * grants more, with {@code management.endpoint.outbox.access=unrestricted}.
 *
 * @since 0.1.0
 */
@Endpoint(id = "outbox", defaultAccess = Access.READ_ONLY)
public class OutboxEndpoint {

	private static final Log logger = LogFactory.getLog(OutboxEndpoint.class);

	private static final int DEFAULT_PAGE_SIZE = 20;

	private static final int MAX_PAGE_SIZE = 200;

	private final OutboxMonitoring monitoring;

	private final OutboxAdministration administration;

	private final DeadEvents deadEvents;

	private final OutboxValuesVisibility valuesVisibility;

	/**
	 * Creates the endpoint.
	 * @param monitoring what is pending or DEAD and why
	 * @param administration discards events
	 * @param deadEvents retries DEAD events
	 * @param valuesVisibility which users see the listed events' values that may hold personal data
	 */
	OutboxEndpoint(OutboxMonitoring monitoring, OutboxAdministration administration, DeadEvents deadEvents,
			OutboxValuesVisibility valuesVisibility) {
		this.monitoring = monitoring;
		this.administration = administration;
		this.deadEvents = deadEvents;
		this.valuesVisibility = valuesVisibility;
	}

	/**
	 * Counts the events by status and transport.
	 * @param outbox the outbox to read, by name, or {@code null} for the primary data source's
	 * @param tenant the tenant whose outbox's backlog to read instead, or {@code null}
	 * @return the summary
	 */
	@ReadOperation
	public Summary summary(@Nullable String outbox, @Nullable String tenant) {
		OutboxMonitoring monitoring = outbox(outbox);
		Map<EventStatus, Map<String, Long>> byStatus = new TreeMap<>();
		BacklogReading backlog;
		if (tenant != null) {
			backlog = tenantBacklog(tenant);
		}
		else {
			for (EventCount count : monitoring.countByStatus()) {
				byStatus.computeIfAbsent(count.status(), (status) -> new TreeMap<>())
					.put(count.transport(), count.events());
			}
			backlog = monitoring.readBacklog();
		}
		List<String> outboxes = new ArrayList<>();
		if (!this.monitoring.otherOutboxes().isEmpty()) {
			outboxes.add(this.monitoring.name());
			outboxes.addAll(this.monitoring.otherOutboxes().keySet());
		}
		return new Summary(monitoring.name(), tenant, outboxes, backlog.pending(), backlog.scheduled(), backlog.dead(),
				backlog.oldestPendingCreatedAt(), backlog.oldestPendingAge().toMillis() / 1000.0, byStatus,
				monitoring.unavailableTransports(), monitoring.pausedDestinations(), this.monitoring.tenants());
	}

	private BacklogReading tenantBacklog(String tenant) {
		try {
			return this.monitoring.readTenantBacklog(tenant);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "Unknown tenant");
		}
	}

	private OutboxMonitoring outbox(@Nullable String name) {
		if (name == null || name.equals(this.monitoring.name())) {
			return this.monitoring;
		}
		OutboxMonitoring other = this.monitoring.otherOutboxes().get(name);
		if (other == null) {
			List<String> names = new ArrayList<>(List.of(this.monitoring.name()));
			names.addAll(this.monitoring.otherOutboxes().keySet());
			throw new InvalidEndpointRequestException("'" + name + "' is not an outbox: use one of " + names,
					"Unknown outbox");
		}
		return other;
	}

	/**
	 * Lists the pending or DEAD events, oldest first, a page at a time.
	 * @param status {@code pending} or {@code dead}
	 * @param page the page, from 0
	 * @param size events per page, at most 200
	 * @param outbox the outbox to read, by name, or {@code null} for the primary data source's
	 * @param securityContext who asks, which decides whether the values that may hold personal data are
	 * shown
	 * @return the page
	 */
	@ReadOperation
	public EventsPage events(@Selector String status, @Nullable Integer page, @Nullable Integer size,
			@Nullable String outbox, SecurityContext securityContext) {
		EventStatus eventStatus = listableStatus(status);
		int pageNumber = (page != null) ? page : 0;
		int pageSize = (size != null) ? size : DEFAULT_PAGE_SIZE;
		if (pageNumber < 0) {
			throw new InvalidEndpointRequestException("page must be 0 or more, not " + pageNumber, "Bad page");
		}
		if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
			throw new InvalidEndpointRequestException(
					"size must be between 1 and " + MAX_PAGE_SIZE + ", not " + pageSize, "Bad size");
		}
		boolean showValues = this.valuesVisibility.isShownTo(securityContext);
		List<StoredEvent> events = outbox(outbox).list(eventStatus, pageNumber * pageSize, pageSize, showValues);
		return new EventsPage(eventStatus, pageNumber, pageSize, events);
	}

	/**
	 * Retries one DEAD event: it is published again, in its key's order, with a fresh set of attempts.
	 * @param id the event's id
	 * @return how many events were put back (0 when no DEAD event has that id)
	 */
	@WriteOperation
	public ActionResult retry(@Selector UUID id) {
		boolean retried = this.deadEvents.retry(id);
		logger.info("Outbox endpoint: retry of DEAD event " + id + (retried ? "" : " found no DEAD event"));
		return new ActionResult("retry", retried ? 1 : 0);
	}

	/**
	 * Retries every DEAD event, or those of one event type.
	 * @param eventType only events of this logical type, or {@code null} for all
	 * @return how many events were put back
	 */
	@WriteOperation
	public ActionResult retryAll(@Nullable String eventType) {
		int retried = this.deadEvents.retryAll(eventType);
		logger.info("Outbox endpoint: retried " + retried + " DEAD events"
				+ ((eventType != null) ? " of type " + eventType : ""));
		return new ActionResult("retry", retried);
	}

	/**
	 * Discards one pending or DEAD event: it is deleted and never published.
	 * @param id the event's id
	 * @return how many events were discarded (0 when no pending or DEAD event has that id)
	 */
	@DeleteOperation
	public ActionResult discard(@Selector UUID id) {
		boolean discarded = this.administration.discard(id);
		logger.info("Outbox endpoint: discard of event " + id + (discarded ? "" : " found no pending or DEAD event"));
		return new ActionResult("discard", discarded ? 1 : 0);
	}

	private static EventStatus listableStatus(String status) {
		String name = status.toUpperCase(Locale.ROOT);
		if (name.equals(EventStatus.PENDING.name()) || name.equals(EventStatus.DEAD.name())) {
			return EventStatus.valueOf(name);
		}
		throw new InvalidEndpointRequestException("'" + status + "' is not a status that can be listed: use "
				+ Arrays.asList("pending", "dead"), "Unknown status");
	}

	/**
	 * What the outbox table holds, and what this instance cannot publish to for now.
	 *
	 * @param outbox the outbox read, by name
	 * @param tenant the tenant whose outbox's backlog was read, if one was asked for: its events are then
	 * not counted by status
	 * @param outboxes every outbox's name when the application has several, else empty
	 * @param pending pending events that are due
	 * @param scheduled delayed events whose time has not come yet (pending, but not backlog)
	 * @param dead DEAD events
	 * @param oldestPendingCreatedAt when the oldest due pending event became due (was written, or for a
	 * delayed event its delivery time), if any is pending
	 * @param oldestPendingAgeSeconds how long it has waited since
	 * @param events events by status, then by transport
	 * @param unavailableTransports transports this instance found unavailable that have not acknowledged
	 * since
	 * @param pausedDestinations destinations this instance pauses, unavailable while the rest of their
	 * transport took messages
	 * @param tenants how the relay of the tenants' outboxes fares, when the application has tenants
	 */
	public record Summary(String outbox, @Nullable String tenant, List<String> outboxes, long pending, long scheduled, long dead, @Nullable Instant oldestPendingCreatedAt,
			double oldestPendingAgeSeconds, Map<EventStatus, Map<String, Long>> events,
			Set<String> unavailableTransports, List<PausedDestination> pausedDestinations,
			@Nullable TenantsReading tenants) {
	}

	/**
	 * A page of events.
	 *
	 * @param status their status
	 * @param page the page number, from 0
	 * @param size the page size
	 * @param events the events, oldest first
	 */
	public record EventsPage(EventStatus status, int page, int size, List<StoredEvent> events) {
	}

	/**
	 * What an action did.
	 *
	 * @param action the action
	 * @param events how many events it changed
	 */
	public record ActionResult(String action, int events) {
	}

}
