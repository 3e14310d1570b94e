package dev.outboxstarter.console.shipping;

import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.HttpStatusEntryPoint;

/**
 * Operators act from a browser session: a login form, and CSRF protection with the token in a cookie,
 * which the console sends back with every action. Anyone may read the actuator endpoints; any signed-in
 * user may send them other requests, so that what refuses a user without the operator role is the
 * console itself ({@code management.endpoint.outboxconsole.operator-roles}); an anonymous one gets 401.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) {
		http.authorizeHttpRequests((requests) -> requests
			.requestMatchers(EndpointRequest.toAnyEndpoint().withHttpMethod(HttpMethod.GET))
			.permitAll()
			.requestMatchers(EndpointRequest.toAnyEndpoint())
			.authenticated()
			.anyRequest()
			.permitAll());
		http.formLogin((login) -> login.defaultSuccessUrl("/actuator/outboxconsole", true));
		http.csrf((csrf) -> csrf.spa());
		http.exceptionHandling((exceptions) -> exceptions.defaultAuthenticationEntryPointFor(
				new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED), EndpointRequest.toAnyEndpoint()));
		return http.build();
	}

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(
				User.withUsername("operator").password("{noop}operator-password").roles("OPERATOR").build(),
				User.withUsername("viewer").password("{noop}viewer-password").roles("VIEWER").build());
	}

}
