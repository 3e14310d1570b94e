package dev.outboxstarter.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.outboxstarter.DeadEvents;
import dev.outboxstarter.actuate.OutboxValuesVisibility;
import dev.outboxstarter.operations.BacklogReading;
import dev.outboxstarter.operations.BacklogSnapshot;
import dev.outboxstarter.operations.DeadEventCount;
import dev.outboxstarter.operations.EventCount;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.EventStatus;
import dev.outboxstarter.operations.OutboxAdministration;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.PausedDestination;
import dev.outboxstarter.operations.StoredEvent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.StreamUtils;

/**
 * The {@code outboxconsole} actuator endpoint: the operator console's page and everything it shows and
 * does, on the management server. Over HTTP:
 * <ul>
 * <li>{@code GET /actuator/outboxconsole}: the page (HTML, with its script and styles; it loads nothing
 * from elsewhere);</li>
 * <li>{@code GET /actuator/outboxconsole/overview}: the backlog and its history, unavailable transports,
 * paused destinations, DEAD events by type and destination, and whether the user may act;</li>
 * <li>{@code GET /actuator/outboxconsole/events}, with {@code status}, {@code type}, {@code destination},
 * {@code key}, {@code aggregateType}, {@code aggregateId}, {@code from}, {@code to} (ISO-8601 instants),
 * {@code page} and {@code size}: the events that match, newest first;</li>
 * <li>{@code GET /actuator/outboxconsole/events/{id}}: one event, with its payload and headers;</li>
 * <li>{@code POST /actuator/outboxconsole/{id}}: retries one DEAD event;</li>
 * <li>{@code DELETE /actuator/outboxconsole/{id}}: discards one pending or DEAD event;</li>
 * <li>{@code POST /actuator/outboxconsole} with {@code {"action": "retry-dead", ...}} or
 * {@code {"action": "republish", "target": ..., ...}} and the criteria above: retries the DEAD events,
 * or republishes the PUBLISHED events, that match; with no criterion only when the request says
 * {@code "all": true}.</li>
 * </ul>
 * Where the application has several outboxes, one per data source, every read takes an {@code outbox}
 * parameter, the name of the outbox to read (its data source's bean name), and reads the primary data
 * source's outbox without it; the overview lists their names.
 * Its default access is read-only: the actions exist only where the application grants
 * {@code management.endpoint.outboxconsole.access=unrestricted}, and then only an authenticated user in
 * one of {@code management.endpoint.outboxconsole.operator-roles} may take them. Payloads, headers, keys,
 * aggregate ids and errors are shown as {@code management.endpoint.outbox.show-values} allows. Every
 * action is logged with the name of the user who took it.
 *
 * @since 0.1.0
 */
@WebEndpoint(id = "outboxconsole", defaultAccess = Access.READ_ONLY)
public class OutboxConsoleEndpoint {

	private static final Log logger = LogFactory.getLog(OutboxConsoleEndpoint.class);

	private static final int DEFAULT_PAGE_SIZE = 20;

	private static final int MAX_PAGE_SIZE = 100;

	/**
	 * How long the overview's counts, which read every row of the table kept, serve all open pages
	 * before they are read again.
	 */
	private static final Duration COUNTS_MAX_AGE = Duration.ofSeconds(5);

	private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
	};

	private final OutboxMonitoring monitoring;

	private final OutboxAdministration administration;

	private final DeadEvents deadEvents;

	private final MeterHistory history;

	private final JsonMapper json;

	private final boolean actionsExposed;

	private final Set<String> operatorRoles;

	private final OutboxValuesVisibility valuesVisibility;

	private final int republishLimit;

	private final String page;

	private final OutboxReadings primary;

	private final Map<String, OutboxReadings> others = new ConcurrentHashMap<>();

	OutboxConsoleEndpoint(OutboxMonitoring monitoring, OutboxAdministration administration, DeadEvents deadEvents,
			MeterHistory history, JsonMapper json, Access access, Collection<String> operatorRoles,
			OutboxValuesVisibility valuesVisibility, int republishLimit) {
		this.monitoring = monitoring;
		this.administration = administration;
		this.deadEvents = deadEvents;
		this.history = history;
		this.json = json;
		this.actionsExposed = access == Access.UNRESTRICTED;
		this.operatorRoles = Set.copyOf(operatorRoles);
		this.valuesVisibility = valuesVisibility;
		this.republishLimit = republishLimit;
		this.page = resource("console.html");
		this.primary = new OutboxReadings(monitoring);
	}

	/**
	 * The console's page.
	 * @return the page's HTML
	 */
	@ReadOperation(produces = "text/html;charset=UTF-8")
	public String page() {
		return this.page;
	}

	/**
	 * What the console shows: the overview, or the events that match a query.
	 * @param view {@code overview} or {@code events}
	 * @param status only events of this status (events)
	 * @param type only events of this logical type (events)
	 * @param destination only events for this destination (events)
	 * @param key only events with this message key (events)
	 * @param aggregateType only events of aggregates of this type (events)
	 * @param aggregateId only events of this aggregate (events)
	 * @param from only events written at or after this instant, ISO-8601 (events)
	 * @param to only events written before this instant, ISO-8601 (events)
	 * @param page the page of events, from 0
	 * @param size events per page, at most 100
	 * @param outbox the outbox to read, by name, or {@code null} for the primary data source's
	 * @param securityContext who asks
	 * @return the overview or the page of events
	 */
	@ReadOperation
	public Object view(@Selector String view, @Nullable String status, @Nullable String type,
			@Nullable String destination, @Nullable String key, @Nullable String aggregateType,
			@Nullable String aggregateId, @Nullable String from, @Nullable String to, @Nullable Integer page,
			@Nullable Integer size, @Nullable String outbox, SecurityContext securityContext) {
		return switch (view) {
			case "overview" -> overview(readings(outbox), securityContext);
			case "events" -> events(readings(outbox).outbox(),
					query(status, type, destination, key, aggregateType, aggregateId, from, to),
					(page != null) ? page : 0, (size != null) ? size : DEFAULT_PAGE_SIZE, securityContext);
			default -> throw new InvalidEndpointRequestException(
					"'" + view + "' is not a view of the console: use 'overview' or 'events'", "Unknown view");
		};
	}

	/**
	 * One event, with its payload and headers where they are shown.
	 * @param view {@code events}
	 * @param id the event's id
	 * @param outbox the outbox to read, by name, or {@code null} for the primary data source's
	 * @param securityContext who asks
	 * @return the event, or 404 when that outbox has none with that id
	 */
	@ReadOperation
	public WebEndpointResponse<EventDetail> event(@Selector String view, @Selector UUID id, @Nullable String outbox,
			SecurityContext securityContext) {
		if (!view.equals("events")) {
			throw new InvalidEndpointRequestException("'" + view + "' has no events: use 'events/{id}'",
					"Unknown view");
		}
		OutboxMonitoring monitoring = readings(outbox).outbox();
		boolean withValues = showsValues(securityContext);
		StoredEvent event = monitoring.find(id, withValues);
		if (event == null) {
			return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
		}
		return new WebEndpointResponse<>(new EventDetail(EventRow.of(event), withValues,
				(event.payload() != null) ? PayloadDecoding.decode(event.payload(), event.contentType(), this.json) : null,
				(event.headers() != null) ? this.json.readValue(event.headers(), HEADERS) : null,
				event.lastError()));
	}

	/**
	 * Retries one DEAD event.
	 * @param id the event's id
	 * @param securityContext who asks
	 * @return what was done, or 403 when the user may not act
	 */
	@WriteOperation
	public WebEndpointResponse<ActionResult> retry(@Selector UUID id, SecurityContext securityContext) {
		return act("retry", "DEAD event " + id, securityContext, () -> {
			boolean retried = this.deadEvents.retry(id);
			return new ActionResult("retry", retried ? 1 : 0, List.of(),
					retried ? null : "No DEAD event has id " + id);
		});
	}

	/**
	 * Discards one pending or DEAD event: it is deleted and never published.
	 * @param id the event's id
	 * @param securityContext who asks
	 * @return what was done, or 403 when the user may not act
	 */
	@DeleteOperation
	public WebEndpointResponse<ActionResult> discard(@Selector UUID id, SecurityContext securityContext) {
		return act("discard", "event " + id, securityContext, () -> {
			boolean discarded = this.administration.discard(id);
			return new ActionResult("discard", discarded ? 1 : 0, List.of(),
					discarded ? null : "No pending or DEAD event has id " + id);
		});
	}

	/**
	 * Acts on the events a query matches: retries the DEAD ones ({@code retry-dead}), or republishes the
	 * PUBLISHED ones ({@code republish}), at most {@code management.endpoint.outboxconsole.republish-limit}
	 * of them, the oldest first.
	 * @param action {@code retry-dead} or {@code republish}
	 * @param type only events of this logical type
	 * @param destination only events for this destination
	 * @param key only events with this message key
	 * @param aggregateType only events of aggregates of this type
	 * @param aggregateId only events of this aggregate
	 * @param from only events written at or after this instant, ISO-8601
	 * @param to only events written before this instant, ISO-8601
	 * @param target where republished copies go, on their transport; their own destination when empty
	 * @param all {@code true} to act on every DEAD or PUBLISHED event of the table when no criterion is
	 * given, which is otherwise refused
	 * @param securityContext who asks
	 * @return what was done; 403 when the user may not act, 400 when the request is refused: no
	 * criterion without {@code all}, a criterion on a value hidden from the user, or a target the events'
	 * transport cannot send to
	 */
	@WriteOperation
	public WebEndpointResponse<ActionResult> actOnMatching(String action, @Nullable String type,
			@Nullable String destination, @Nullable String key, @Nullable String aggregateType,
			@Nullable String aggregateId, @Nullable String from, @Nullable String to, @Nullable String target,
			@Nullable Boolean all, SecurityContext securityContext) {
		EventQuery query = query(null, type, destination, key, aggregateType, aggregateId, from, to);
		boolean withValues = showsValues(securityContext);
		String matching = describe(query, withValues);
		return switch (action) {
			case "retry-dead" -> act(action, "DEAD events matching " + matching, securityContext, () -> {
				checkCriteria(action, query, Boolean.TRUE.equals(all), withValues);
				int retried = this.administration.retryDead(query);
				return new ActionResult(action, retried, List.of(), null);
			});
			case "republish" -> {
				String copiesTo = blankToNull(target);
				yield act(action, "PUBLISHED events matching " + matching
						+ ((copiesTo != null) ? " to " + copiesTo : " to their destinations"), securityContext, () -> {
							checkCriteria(action, query, Boolean.TRUE.equals(all), withValues);
							List<UUID> copies = this.administration.republish(query, copiesTo, this.republishLimit);
							return new ActionResult(action, copies.size(), copies,
									(copies.size() == this.republishLimit) ? "Copied the first " + this.republishLimit
											+ " events of the range (management.endpoint.outboxconsole.republish-limit): "
											+ "narrow the range to copy the rest" : null);
						});
			}
			default -> throw new InvalidEndpointRequestException(
					"'" + action + "' is not an action on matching events: use 'retry-dead' or 'republish'",
					"Unknown action");
		};
	}

	/**
	 * Refuses an action on matching events that would act on the whole table unasked, or whose criteria
	 * the user could use to learn what is hidden: how many events a key or an aggregate has.
	 */
	private static void checkCriteria(String action, EventQuery query, boolean all, boolean withValues) {
		if (!withValues && (query.key() != null || query.aggregateId() != null)) {
			throw new IllegalArgumentException("The " + ((query.key() != null) ? "key" : "aggregateId")
					+ " criterion is refused: only users who see the events' values "
					+ "(management.endpoint.outbox.show-values) may act on events by key or aggregate id");
		}
		if (!all && query.equals(EventQuery.all())) {
			throw new IllegalArgumentException("No criterion: " + action + " would act on every "
					+ (action.equals("republish") ? "PUBLISHED" : "DEAD") + " event of the table. Give a type, "
					+ "destination, key, aggregateType, aggregateId, from or to, or \"all\": true to mean all of them");
		}
	}

	private Overview overview(OutboxReadings readings, SecurityContext securityContext) {
		OutboxMonitoring monitoring = readings.outbox();
		BacklogReading backlog = readings.latestBacklog();
		List<EventCount> counts = readings.counts().get();
		List<DeadEventCount> dead = readings.deadCounts().get();
		Permission permission = permission(securityContext);
		Principal principal = securityContext.getPrincipal();
		return new Overview(monitoring.name(), outboxNames(), backlog.databaseNow(), monitoring.relayMode(),
				monitoring.transports(), backlog.pending(), backlog.scheduled(), backlog.dead(),
				backlog.oldestPendingAge().toMillis() / 1000.0, counts, monitoring.unavailableTransports(),
				monitoring.pausedDestinations(), dead,
				new History(this.history.interval().toMillis(), this.history.samples()),
				(principal != null) ? principal.getName() : null, permission.allowed(), permission.reason(),
				showsValues(securityContext));
	}

	/**
	 * The readings of the outbox of that name, the primary data source's when none is given.
	 */
	private OutboxReadings readings(@Nullable String outbox) {
		String name = blankToNull(outbox);
		if (name == null || name.equals(this.monitoring.name())) {
			return this.primary;
		}
		OutboxMonitoring other = this.monitoring.otherOutboxes().get(name);
		if (other == null) {
			throw new InvalidEndpointRequestException("'" + name + "' is not an outbox: use one of " + allOutboxNames(),
					"Unknown outbox");
		}
		return this.others.computeIfAbsent(name, (key) -> new OutboxReadings(other));
	}

	/**
	 * Every outbox's name, the primary one first, when the application has several; else none, and the
	 * page shows no choice.
	 */
	private List<String> outboxNames() {
		return this.monitoring.otherOutboxes().isEmpty() ? List.of() : allOutboxNames();
	}

	private List<String> allOutboxNames() {
		List<String> names = new ArrayList<>();
		names.add(this.monitoring.name());
		names.addAll(this.monitoring.otherOutboxes().keySet());
		return names;
	}

	private EventsPage events(OutboxMonitoring monitoring, EventQuery query, int page, int size,
			SecurityContext securityContext) {
		if (page < 0) {
			throw new InvalidEndpointRequestException("page must be 0 or more, not " + page, "Bad page");
		}
		if (size < 1 || size > MAX_PAGE_SIZE) {
			throw new InvalidEndpointRequestException("size must be between 1 and " + MAX_PAGE_SIZE + ", not " + size,
					"Bad size");
		}
		boolean withValues = showsValues(securityContext);
		if (!withValues && (query.key() != null || query.aggregateId() != null)) {
			// The rows found would tell whether a key or an aggregate has events, a value kept from this user.
			throw new InvalidEndpointRequestException("Only users who see the events' values "
					+ "(management.endpoint.outbox.show-values) may search by key or aggregate id", "Values hidden");
		}
		List<EventRow> events = monitoring.find(query, page * size, size, withValues)
			.stream()
			.map(EventRow::of)
			.toList();
		return new EventsPage(page, size, events);
	}

	private WebEndpointResponse<ActionResult> act(String action, String what, SecurityContext securityContext,
			Supplier<ActionResult> operation) {
		Permission permission = permission(securityContext);
		String user = user(securityContext);
		if (!permission.allowed()) {
			logger.warn("Outbox console: " + action + " of " + what + " refused to " + user + ": " + permission.reason());
			return new WebEndpointResponse<>(new ActionResult(action, 0, List.of(), permission.reason()), 403);
		}
		ActionResult result;
		try {
			result = operation.get();
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Outbox console: " + action + " of " + what + " refused to " + user + ": " + ex.getMessage());
			return new WebEndpointResponse<>(new ActionResult(action, 0, List.of(), ex.getMessage()),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		// What the overview counts has changed, in whichever outbox the action reached: the page that
		// refreshes next shows it.
		this.primary.forget();
		this.others.values().forEach(OutboxReadings::forget);
		logger.info("Outbox console: " + user + " took action " + action + " on " + what + ": " + result.events()
				+ " event(s)" + ((result.message() != null) ? " (" + result.message() + ")" : ""));
		return new WebEndpointResponse<>(result);
	}

	private Permission permission(SecurityContext securityContext) {
		if (!this.actionsExposed) {
			return new Permission(false, "The console is read-only: management.endpoint.outboxconsole.access is not "
					+ "unrestricted");
		}
		Principal principal = securityContext.getPrincipal();
		if (principal == null) {
			return new Permission(false, "Sign in as an operator to act");
		}
		if (!this.operatorRoles.isEmpty() && this.operatorRoles.stream().noneMatch(securityContext::isUserInRole)) {
			return new Permission(false, "User '" + principal.getName() + "' has none of the operator roles "
					+ this.operatorRoles.stream().sorted().toList());
		}
		return new Permission(true, null);
	}

	private boolean showsValues(SecurityContext securityContext) {
		return this.valuesVisibility.isShownTo(securityContext);
	}

	private static String user(SecurityContext securityContext) {
		Principal principal = securityContext.getPrincipal();
		return (principal != null) ? "'" + principal.getName() + "'" : "an anonymous user";
	}

	private static EventQuery query(@Nullable String status, @Nullable String type, @Nullable String destination,
			@Nullable String key, @Nullable String aggregateType, @Nullable String aggregateId, @Nullable String from,
			@Nullable String to) {
		return new EventQuery(status(status), blankToNull(type), blankToNull(destination), blankToNull(key),
				blankToNull(aggregateType), blankToNull(aggregateId), instant("from", from), instant("to", to));
	}

	private static @Nullable EventStatus status(@Nullable String status) {
		String name = blankToNull(status);
		if (name == null) {
			return null;
		}
		try {
			return EventStatus.valueOf(name.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException("'" + status + "' is not a status: use "
					+ List.of(EventStatus.values()).stream().map((value) -> value.name().toLowerCase(Locale.ROOT)).toList(),
					"Unknown status");
		}
	}

	private static @Nullable Instant instant(String name, @Nullable String value) {
		String text = blankToNull(value);
		if (text == null) {
			return null;
		}
		try {
			return Instant.parse(text);
		}
		catch (DateTimeParseException ex) {
			throw new InvalidEndpointRequestException(
					name + " must be an ISO-8601 instant such as 2026-01-31T09:15:00Z, not '" + value + "'", "Bad " + name);
		}
	}

	private static @Nullable String blankToNull(@Nullable String value) {
		return (value == null || value.isBlank()) ? null : value.trim();
	}

	/**
	 * The criteria of a query as the log shows them: keys and aggregate ids, values that may hold personal
	 * data, read "(hidden)" unless the user who acts sees them.
	 */
	private static String describe(EventQuery query, boolean withValues) {
		String criteria = Stream
			.of(criterion("type", query.eventType()), criterion("destination", query.destination()),
					criterion("key", hiddenUnless(withValues, query.key())),
					criterion("aggregateType", query.aggregateType()),
					criterion("aggregateId", hiddenUnless(withValues, query.aggregateId())),
					criterion("from", query.createdFrom()),
					criterion("to", query.createdBefore()))
			.filter((criterion) -> criterion != null)
			.collect(Collectors.joining(", "));
		return criteria.isEmpty() ? "{}" : "{" + criteria + "}";
	}

	private static @Nullable String hiddenUnless(boolean shown, @Nullable String value) {
		return (value != null && !shown) ? "(hidden)" : value;
	}

	private static @Nullable String criterion(String name, @Nullable Object value) {
		return (value != null) ? name + "=" + value : null;
	}

	private static String resource(String name) {
		try (InputStream page = new ClassPathResource(name, OutboxConsoleEndpoint.class).getInputStream()) {
			return StreamUtils.copyToString(page, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The console's " + name + " is missing from its jar", ex);
		}
	}

	/**
	 * What the overview reads of one outbox, each count at most once per {@link #COUNTS_MAX_AGE} for all
	 * open pages.
	 *
	 * @param outbox the view of the outbox
	 * @param backlog its backlog, read from its table
	 * @param counts its rows by status and transport
	 * @param deadCounts its DEAD rows by type and destination
	 */
	private record OutboxReadings(OutboxMonitoring outbox, RecentReading<BacklogReading> backlog,
			RecentReading<List<EventCount>> counts, RecentReading<List<DeadEventCount>> deadCounts) {

		OutboxReadings(OutboxMonitoring outbox) {
			this(outbox, new RecentReading<>(outbox::readBacklog, COUNTS_MAX_AGE, System::nanoTime),
					new RecentReading<>(outbox::countByStatus, COUNTS_MAX_AGE, System::nanoTime),
					new RecentReading<>(outbox::countDead, COUNTS_MAX_AGE, System::nanoTime));
		}

		/**
		 * The backlog as the backlog monitor read it last, which costs no query; read from the table, as
		 * often as the counts, where no monitor runs or before its first reading.
		 */
		BacklogReading latestBacklog() {
			BacklogSnapshot snapshot = this.outbox.latestBacklog();
			BacklogReading reading = (snapshot != null) ? snapshot.reading() : null;
			return (reading != null) ? reading : this.backlog.get();
		}

		void forget() {
			this.counts.forget();
			this.deadCounts.forget();
			this.backlog.forget();
		}

	}

	/**
	 * Whether the user may act, and if not, why.
	 */
	private record Permission(boolean allowed, @Nullable String reason) {
	}

	/**
	 * What the console's overview shows.
	 *
	 * @param outbox the outbox read, by name
	 * @param outboxes every outbox's name, the primary one first, when the application has several, else
	 * empty
	 * @param time when it was read, on the database clock
	 * @param relayMode who publishes: {@code polling} or {@code log}
	 * @param transports the transports this instance publishes to
	 * @param pending pending events that are due, the backlog
	 * @param scheduled delayed events whose delivery time has not come, which are not backlog
	 * @param dead DEAD events
	 * @param oldestPendingAgeSeconds how long the oldest pending event has waited
	 * @param events events by status and transport
	 * @param unavailableTransports transports this instance found unavailable
	 * @param pausedDestinations destinations this instance pauses
	 * @param deadByDestination DEAD events by type and destination, largest first
	 * @param history the recent history of this instance's meters, which count every outbox together
	 * @param user the name of the user who asks, if signed in
	 * @param actionsAllowed whether that user may act
	 * @param actionsRefusal why not, if not
	 * @param valuesShown whether that user sees payloads, headers, keys, aggregate ids and errors
	 */
	public record Overview(String outbox, List<String> outboxes, Instant time, String relayMode, Set<String> transports, long pending, long scheduled,
			long dead,
			double oldestPendingAgeSeconds, List<EventCount> events, Set<String> unavailableTransports,
			List<PausedDestination> pausedDestinations, List<DeadEventCount> deadByDestination, History history,
			@Nullable String user, boolean actionsAllowed, @Nullable String actionsRefusal, boolean valuesShown) {
	}

	/**
	 * The outbox's recent history.
	 *
	 * @param intervalMillis the time between samples
	 * @param samples the samples, oldest first
	 */
	public record History(long intervalMillis, List<Sample> samples) {
	}

	/**
	 * A page of events.
	 *
	 * @param page the page number, from 0
	 * @param size the page size
	 * @param events the events, newest first
	 */
	public record EventsPage(int page, int size, List<EventRow> events) {
	}

	/**
	 * An event as the console lists it.
	 *
	 * @param id its id
	 * @param seq its insertion order
	 * @param eventType its logical type
	 * @param transport its transport
	 * @param destination its destination
	 * @param key its message key, where shown
	 * @param aggregateType the type of its aggregate
	 * @param aggregateId the id of its aggregate, where shown
	 * @param status its status
	 * @param attempts its failed attempts
	 * @param createdAt when it was written
	 * @param availableAt when it is due next, if pending
	 * @param publishedAt when it was acknowledged, if it was
	 * @param deliverAt for a delayed event, the time it is to be published at; {@code null} for one
	 * published at once
	 */
	public record EventRow(UUID id, long seq, String eventType, String transport, String destination,
			@Nullable String key, @Nullable String aggregateType, @Nullable String aggregateId, EventStatus status,
			int attempts, Instant createdAt, Instant availableAt, @Nullable Instant publishedAt,
			@Nullable Instant deliverAt) {

		static EventRow of(StoredEvent event) {
			return new EventRow(event.id(), event.seq(), event.eventType(), event.transport(), event.destination(),
					event.key(), event.aggregateType(), event.aggregateId(), event.status(), event.attempts(),
					event.createdAt(), event.availableAt(), event.publishedAt(), event.deliverAt());
		}

	}

	/**
	 * One event in full.
	 *
	 * @param event the event
	 * @param valuesShown whether its values are shown to the user who asks
	 * @param payload its payload, where shown
	 * @param headers its stored headers, where shown
	 * @param lastError what its last failed attempt reported, where shown
	 */
	public record EventDetail(EventRow event, boolean valuesShown, @Nullable Payload payload,
			@Nullable Map<String, String> headers, @Nullable String lastError) {
	}

	/**
	 * An event's payload as the console shows it: JSON as JSON, other text as text, and anything that is
	 * not printable text as Base64 of its UTF-8 bytes, never garbled.
	 *
	 * @param encoding {@code json}, {@code text} or {@code base64}
	 * @param value the payload in that encoding
	 * @param contentType the media type of a payload in a format other than JSON (Avro, Protobuf),
	 * {@code null} for JSON
	 */
	public record Payload(String encoding, String value, @Nullable String contentType) {
	}

	/**
	 * The outbox at one time, from its meters. Rates and the latency are over the interval that ended
	 * then; a meter the application does not have reads as {@code null}.
	 *
	 * @param time when it was taken
	 * @param backlog pending events
	 * @param oldestAgeSeconds how long the oldest pending event has waited
	 * @param publishedPerSecond events published per second
	 * @param failedPerSecond failed publish attempts per second
	 * @param latencyMillis the mean time from commit to acknowledgement of the events published
	 */
	public record Sample(Instant time, @Nullable Double backlog, @Nullable Double oldestAgeSeconds,
			@Nullable Double publishedPerSecond, @Nullable Double failedPerSecond, @Nullable Double latencyMillis) {
	}

	/**
	 * What an action did.
	 *
	 * @param action the action
	 * @param events how many events it changed or copied
	 * @param copies the ids of the copies a republish wrote, in the originals' order
	 * @param message what the user should know, if anything
	 */
	public record ActionResult(String action, int events, List<UUID> copies, @Nullable String message) {
	}

}
