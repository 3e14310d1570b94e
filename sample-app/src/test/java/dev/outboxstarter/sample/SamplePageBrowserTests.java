package dev.outboxstarter.sample;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.outboxstarter.sample.orders.OrderController.OrderView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The sample page in headless Chromium: it shows an order placed and paid over HTTP as received by
 * the consumer, places orders and load from its buttons, and shows the backlog grow during a
 * simulated broker outage and drain after it, in its tiles and in its charts, which it draws itself
 * (it loads nothing from elsewhere), and links the operator console. Screenshots during the outage, after
 * it and after a load run are left in {@code target/screenshots/}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@AutoConfigureMetrics
class SamplePageBrowserTests {

	private static final Path CHROMEDRIVER = Path.of(System.getProperty("sample.chromedriver", "/usr/bin/chromedriver"));

	private static final Path CHROMIUM = Path.of(System.getProperty("sample.chromium", "/usr/bin/chromium"));

	@LocalServerPort
	private int port;

	@Autowired
	private RestTestClient http;

	private ChromeDriver browser;

	@BeforeEach
	void startBrowser() throws IOException {
		if (!Files.isExecutable(CHROMEDRIVER) || !Files.isExecutable(CHROMIUM)) {
			String missing = "Chromium and its driver are needed for the page test (apt-get install chromium "
					+ "chromium-driver, or -Dsample.chromium=... -Dsample.chromedriver=...)";
			if (System.getenv("CI") != null) {
				fail(missing);
			}
			Assumptions.abort(missing);
		}
		ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
			.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
					"--disable-background-networking", "--disable-component-update", "--disable-sync",
					"--no-first-run", "--window-size=1280,1300",
					"--user-data-dir=" + Files.createTempDirectory("sample-chromium"));
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.build();
		this.browser = new ChromeDriver(service, options);
	}

	@AfterEach
	void stopBrowser() {
		if (this.browser != null) {
			this.browser.quit();
		}
		this.http.delete().uri("/simulation/outage").exchange().expectStatus().isOk();
	}

	@Test
	void pageShowsTheOrderReceivedAndTheBacklogGrowingAndDrainingThroughAnOutage() throws IOException {
		OrderView order = this.http.post()
			.uri("/orders")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("customer", "browser", "amount", new BigDecimal("12.00")))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody(OrderView.class)
			.returnResult()
			.getResponseBody();
		this.http.post().uri("/orders/{id}/pay", order.id()).exchange().expectStatus().isOk();

		this.browser.get("http://localhost:" + this.port + "/");
		WebDriverWait wait = new WebDriverWait(this.browser, Duration.ofSeconds(30), Duration.ofMillis(100));
		// The table lists the newest first: the order's OrderPaid, then its OrderPlaced.
		String paidThenPlaced = "OrderPaid " + order.id() + ".*\\n.*OrderPlaced " + order.id();
		wait.until((driver) -> Pattern.compile(paidThenPlaced).matcher(text("received-rows")).find());
		assertThat(number("events-received")).isGreaterThanOrEqualTo(2);
		assertThat(number("published-fast")).isGreaterThanOrEqualTo(2);
		assertThat(text("health")).isEqualTo("UP");
		// Its payment reminder waits for its time: scheduled, not backlog.
		wait.until((driver) -> number("scheduled") >= 1);

		long placedBefore = number("orders-placed");
		this.browser.findElement(By.id("place-order")).click();
		wait.until((driver) -> number("orders-placed") > placedBefore);

		this.browser.findElement(By.id("toggle-outage")).click();
		wait.until((driver) -> text("outage-state").contains("DOWN"));
		this.browser.findElement(By.id("place-order")).click();
		wait.until((driver) -> number("backlog") >= 1 && number("failed") >= 1);
		// A few more orders, one every 100 ms, so that the backlog climbs on the chart.
		setValue("load-orders", "30");
		setValue("load-rate", "10");
		this.browser.findElement(By.id("start-load")).click();
		wait.until((driver) -> text("load-progress").equals("30 / 30 placed ✓"));
		wait.until((driver) -> number("backlog") >= 31);
		wait.until((driver) -> rose(chartValues("backlog")) && last(chartValues("backlog")) >= 31);
		screenshot("sample-page-outage.png");

		this.browser.findElement(By.id("toggle-outage")).click();
		wait.until((driver) -> text("outage-state").equals("broker up"));
		new WebDriverWait(this.browser, Duration.ofSeconds(60), Duration.ofMillis(200))
			.until((driver) -> number("backlog") == 0 && number("published-relay") >= 1);
		wait.until((driver) -> fell(chartValues("backlog")));
		assertThat(chartValues("relay")).as("relay publish rate").anyMatch((rate) -> rate > 0);
		screenshot("sample-page-after-outage.png");
		assertThat(rose(chartValues("backlog"))).as("the backlog series rose, then fell: %s", chartValues("backlog"))
			.isTrue();
		assertThat(loadedFromElsewhere()).as("resources the page loaded from another origin").isEmpty();

		setValue("load-orders", "40");
		setValue("load-rate", "200");
		this.browser.findElement(By.id("start-load")).click();
		wait.until((driver) -> text("load-progress").equals("40 / 40 placed ✓"));
		screenshot("sample-page.png");

		this.browser.findElement(By.id("console-link")).click();
		wait.until((driver) -> driver.getCurrentUrl().endsWith("/actuator/outboxconsole") && !text("updated").isEmpty());
		assertThat(text("relay-mode")).isEqualTo("polling");
		assertThat(text("user")).isEqualTo("anonymous");
	}

	private String text(String id) {
		return this.browser.findElement(By.id(id)).getText();
	}

	private long number(String id) {
		String text = text(id).replace(",", "");
		return text.matches("\\d+") ? Long.parseLong(text) : -1;
	}

	/**
	 * The values a chart line is drawn from.
	 */
	private List<Double> chartValues(String series) {
		String values = this.browser.findElement(By.cssSelector("path[data-series='" + series + "']"))
			.getDomAttribute("data-values");
		return Arrays.stream(values.split(",")).filter((value) -> !value.isEmpty()).map(Double::valueOf).toList();
	}

	/** Zero, then at least one. */
	private static boolean rose(List<Double> values) {
		int zero = values.indexOf(0.0);
		return zero >= 0 && values.subList(zero, values.size()).stream().anyMatch((value) -> value >= 1);
	}

	/** At least one, then zero at the end. */
	private static boolean fell(List<Double> values) {
		return !values.isEmpty() && last(values) == 0 && values.stream().anyMatch((value) -> value >= 1);
	}

	private static double last(List<Double> values) {
		return values.isEmpty() ? -1 : values.get(values.size() - 1);
	}

	private List<?> loadedFromElsewhere() {
		return (List<?>) this.browser.executeScript("return performance.getEntriesByType('resource')"
				+ ".map((entry) => entry.name).filter((url) => !url.startsWith(location.origin));");
	}

	private void setValue(String id, String value) {
		var input = this.browser.findElement(By.id(id));
		input.clear();
		input.sendKeys(value);
	}

	private void screenshot(String name) throws IOException {
		Path target = Path.of("target", "screenshots", name).toAbsolutePath();
		Files.createDirectories(target.getParent());
		Files.copy(this.browser.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
		System.out.println("Screenshot of the sample page: " + target);
	}

}
