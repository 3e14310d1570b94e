package dev.outboxstarter.actuate;

import java.util.Collection;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

/**
 * Which users see the values of an outbox event that may hold personal data: its payload, headers,
 * message key, aggregate id and last error. It is the rule of
 * {@code management.endpoint.outbox.show-values} and {@code management.endpoint.outbox.roles}, which the
 * {@code outbox} endpoint applies, and every other view of the events (the operator console) applies as
 * well, so that an operator sets it in one place.
 *
 * @since 0.1.0
 */
public final class OutboxValuesVisibility {

	private final Show show;

	private final Set<String> roles;

	/**
	 * Creates the rule.
	 * @param show when values are shown
	 * @param roles the roles a user needs to see them with {@link Show#WHEN_AUTHORIZED} (none: any
	 * authenticated user)
	 */
	public OutboxValuesVisibility(Show show, Collection<String> roles) {
		this.show = show;
		this.roles = Set.copyOf(roles);
	}

	/**
	 * Whether the values are shown to a user.
	 * @param securityContext who asks
	 * @return whether that user sees them
	 */
	public boolean isShownTo(SecurityContext securityContext) {
		return this.show.isShown(securityContext, this.roles);
	}

}
