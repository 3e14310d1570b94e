package dev.outboxstarter.sample.security;

import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Who may do what: reading any actuator endpoint, the sample's page and its API (orders, events,
 * load, the simulated outage) are open to everyone; every other actuator request, which here means the
 * {@code outbox} endpoint's retry and discard, needs a user with the {@code OPERATOR} role, over HTTP
 * basic. The operator's credentials are Spring Boot's {@code spring.security.user.*} properties.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	private static final String OPERATOR = "OPERATOR";

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) {
		http.authorizeHttpRequests((requests) -> requests
			.requestMatchers(EndpointRequest.toAnyEndpoint().withHttpMethod(HttpMethod.GET))
			.permitAll()
			.requestMatchers(EndpointRequest.toAnyEndpoint())
			.hasRole(OPERATOR)
			.anyRequest()
			.permitAll());
		http.httpBasic(Customizer.withDefaults());
		// CSRF protection is off on purpose: there is no session or login cookie, and the operator's
		// credentials travel only with the requests that carry them (curl -u), never from a browser, since
		// reads need none and the page never writes; a forged cross-site request has nothing to ride on. An
		// application whose operators act from a browser session keeps CSRF protection on.
		http.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
		http.csrf((csrf) -> csrf.disable());
		return http.build();
	}

}
