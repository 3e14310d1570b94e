package dev.outboxstarter.console;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.outboxstarter.console.shipping.Parcels;
import dev.outboxstarter.console.shipping.ShippingTestApplication;
import dev.outboxstarter.testsupport.TcpForwarder;
import dev.outboxstarter.testsupport.TestDatabase;
import dev.outboxstarter.testsupport.TestKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's overview through a Kafka outage, in headless Chromium against the running application
 * on PostgreSQL: the broker is unreachable (a TCP forwarder in front of it, closed) from the first
 * event on, and the page shows the transport unavailable and the backlog and its age climbing as it
 * happens, then the backlog drained and the publish rate once the broker is back, all from the
 * application's own meters, drawn by the page itself.
 */
@SpringBootTest(classes = ShippingTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "console.topic=" + ConsoleBrokerOutageBrowserTests.TOPIC,
				"outbox.table-name=" + ConsoleBrokerOutageBrowserTests.TABLE, "outbox.publish-timeout=2s",
				"outbox.relay.poll-interval=200ms", "outbox.retry.initial-delay=200ms", "outbox.retry.max-delay=500ms",
				"outbox.backlog.refresh-interval=100ms", "spring.kafka.producer.properties.max.block.ms=500",
				"spring.kafka.producer.properties.reconnect.backoff.max.ms=200",
				"management.endpoints.web.exposure.include=outboxconsole",
				"management.endpoint.outboxconsole.sample-interval=250ms", "management.endpoint.outboxconsole.history=2m" })
class ConsoleBrokerOutageBrowserTests {

	static final String TOPIC = "console-outage";

	static final String TABLE = "outbox_console_outage";

	private static final TcpForwarder broker = TestKafka.unreachableAddress();

	static {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		TestKafka.createTopic(TOPIC, 1);
	}

	@LocalServerPort
	private int port;

	@Autowired
	private Parcels parcels;

	private ConsoleBrowser browser;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", broker::address);
		TestDatabase.POSTGRESQL.register(registry);
	}

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

	@AfterAll
	static void closeForwarder() {
		broker.close();
	}

	@Test
	void pageShowsTheBrokerOutageAsItHappensAndTheBacklogDrainingOnceTheBrokerIsBack() throws IOException {
		this.browser.openConsole();
		this.browser.until((driver) -> this.browser.text("unavailable").equals("none"));
		assertThat(this.browser.number("pending")).isZero();

		String batch = UUID.randomUUID().toString();
		for (int i = 0; i < 5; i++) {
			this.parcels.ship(batch + "-" + i, "parcel " + i);
		}

		this.browser.until((driver) -> this.browser.text("unavailable").equals("kafka"));
		this.browser.until((driver) -> this.browser.number("pending") == 5);
		this.browser.until((driver) -> last(this.browser.chartValues("backlog")) == 5
				&& this.browser.chartValues("backlog").contains(0.0));
		this.browser.until((driver) -> this.browser.chartValues("failed").stream().anyMatch((rate) -> rate > 0));
		assertThat(this.browser.text("oldest-age")).matches("\\d+(\\.\\d)? (s|min)");
		this.browser.select("filter-status", "PENDING");
		this.browser.click("search");
		this.browser.until((driver) -> this.browser.resultIds().size() == 5);
		this.browser.screenshot("console-outage.png");

		broker.open();

		this.browser.until(Duration.ofSeconds(60), (driver) -> this.browser.text("unavailable").equals("none")
				&& this.browser.number("pending") == 0);
		this.browser.until((driver) -> this.browser.number("published") == 5);
		this.browser.until((driver) -> last(this.browser.chartValues("backlog")) == 0);
		this.browser.until((driver) -> this.browser.chartValues("published").stream().anyMatch((rate) -> rate > 0));
		this.browser.until((driver) -> !this.browser.chartValues("latency").isEmpty());
		this.browser.select("filter-status", "PUBLISHED");
		this.browser.click("search");
		this.browser.until((driver) -> this.browser.text("results").split("PUBLISHED", -1).length == 6);
		this.browser.screenshot("console-overview.png");
		assertThat(this.browser.loadedFromElsewhere()).as("resources the page loaded from another origin").isEmpty();
	}

	private static double last(List<Double> values) {
		return values.isEmpty() ? -1 : values.get(values.size() - 1);
	}

}
