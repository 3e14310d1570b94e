package dev.outboxstarter.actuate;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the {@code outbox} actuator endpoint shows of an event. Its properties sit beside the endpoint's
 * {@code access} and carry the names and meaning of Spring Boot's own endpoints that hide values
 * ({@code env}, {@code configprops}), so that an operator configures all of it in one place.
 */
@ConfigurationProperties("management.endpoint.outbox")
class OutboxEndpointProperties {

	/**
	 * When listed events include the values that may hold personal data (payload, headers, message
	 * key, aggregate id and last error): 'never', 'when-authorized' (to an authenticated user in one of
	 * 'roles') or 'always'.
	 */
	private final Show showValues;

	/**
	 * Roles a user needs to see those values with 'show-values=when-authorized'. When empty,
	 * any authenticated user sees them.
	 */
	private final Set<String> roles;

	OutboxEndpointProperties(@DefaultValue("never") Show showValues, @Nullable Set<String> roles) {
		this.showValues = showValues;
		this.roles = (roles != null) ? Set.copyOf(roles) : Set.of();
	}

	Show getShowValues() {
		return this.showValues;
	}

	Set<String> getRoles() {
		return this.roles;
	}

}
