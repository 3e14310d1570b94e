package dev.outboxstarter.console;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.operations.EventQuery;
import dev.outboxstarter.operations.OutboxMonitoring;
import dev.outboxstarter.operations.StoredEvent;
import dev.outboxstarter.testsupport.TwoEmbeddedDataSources;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console of an application with an outbox on each of two data sources, in headless Chromium: the
 * page offers the outboxes by name, reads the primary one first, and shows the other one's events, and
 * opens them, once the user picks it. Delivery is off, so what capture writes stays pending.
 */
@SpringBootTest(classes = ConsoleOutboxChoiceBrowserTests.TwoDatabasesApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "outbox.routes[java.lang.String].destination=strings", "outbox.fast-path.enabled=false",
				"outbox.relay.enabled=false", "outbox.backlog.refresh-interval=100ms",
				"management.endpoints.web.exposure.include=outboxconsole",
				"management.endpoint.outbox.show-values=always" })
class ConsoleOutboxChoiceBrowserTests {

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationContext context;

	@Autowired
	private OutboxMonitoring monitoring;

	private ConsoleBrowser browser;

	@BeforeEach
	void startBrowser() throws IOException {
		this.browser = ConsoleBrowser.start(this.port);
	}

	@AfterEach
	void stopBrowser() {
		if (this.browser != null) {
			this.browser.close();
		}
	}

	@Test
	void userPicksTheOutboxWhoseEventsThePageShows() throws IOException {
		String run = UUID.randomUUID().toString();
		publishIn("transactionManager", "order placed " + run);
		publishIn("billingTransactionManager", "invoice sent " + run);
		publishIn("billingTransactionManager", "invoice paid " + run);
		List<String> orders = ids(this.monitoring);
		List<String> invoices = ids(this.monitoring.otherOutboxes().get("billingDataSource"));
		assertThat(invoices).hasSize(2).doesNotContainAnyElementsOf(orders);

		this.browser.openConsole();
		this.browser.until((driver) -> this.browser.element("outbox-choice").isDisplayed());
		assertThat(this.browser.options("outbox")).containsExactly("dataSource", "billingDataSource");
		assertThat(this.browser.text("outbox-choice")).contains("charts: every outbox together");
		this.browser.until((driver) -> this.browser.resultIds().equals(orders));
		this.browser.until((driver) -> this.browser.number("pending") == orders.size());

		this.browser.select("outbox", "billingDataSource");
		this.browser.until((driver) -> this.browser.resultIds().equals(invoices));
		this.browser.until((driver) -> this.browser.number("pending") == invoices.size());
		this.browser.openResult(invoices.get(0));
		assertThat(this.browser.text("detail-payload")).contains("invoice paid " + run);
		this.browser.screenshot("console-outboxes.png");

		this.browser.select("outbox", "dataSource");
		this.browser.until((driver) -> this.browser.resultIds().equals(orders));
		assertThat(this.browser.element("detail").isDisplayed()).as("the other outbox's event is closed").isFalse();
		this.browser.openResult(orders.get(0));
		assertThat(this.browser.text("detail-payload")).contains("order placed " + run);
	}

	private void publishIn(String transactionManager, String event) {
		new TransactionTemplate(this.context.getBean(transactionManager, PlatformTransactionManager.class))
			.executeWithoutResult((status) -> this.context.getBean(Outbox.class).publish(event));
	}

	/** The ids of an outbox's events, newest first, as the page lists them. */
	private static List<String> ids(OutboxMonitoring outbox) {
		return outbox.find(EventQuery.all(), 0, 20, false).stream().map(StoredEvent::id).map(UUID::toString).toList();
	}

	/**
	 * An application with two databases, each with an outbox, whose actuator anyone may read.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(TwoEmbeddedDataSources.class)
	static class TwoDatabasesApplication {

		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) {
			http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll());
			return http.build();
		}

	}

}
