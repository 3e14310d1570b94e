package dev.outboxstarter.sample;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
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
 * simulated broker outage and drain after it. A screenshot is left in {@code target/}.
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
					"--no-first-run", "--window-size=1280,1100",
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

		long placedBefore = number("orders-placed");
		this.browser.findElement(By.id("place-order")).click();
		wait.until((driver) -> number("orders-placed") > placedBefore);

		this.browser.findElement(By.id("toggle-outage")).click();
		wait.until((driver) -> text("outage-state").contains("DOWN"));
		this.browser.findElement(By.id("place-order")).click();
		wait.until((driver) -> number("backlog") >= 1 && number("failed") >= 1);
		screenshot("sample-page-outage.png");

		this.browser.findElement(By.id("toggle-outage")).click();
		wait.until((driver) -> text("outage-state").equals("broker up"));
		new WebDriverWait(this.browser, Duration.ofSeconds(60), Duration.ofMillis(200))
			.until((driver) -> number("backlog") == 0 && number("published-relay") >= 1);

		setValue("load-orders", "40");
		setValue("load-rate", "200");
		this.browser.findElement(By.id("start-load")).click();
		wait.until((driver) -> text("load-progress").equals("40 / 40 placed ✓"));
		screenshot("sample-page.png");
	}

	private String text(String id) {
		return this.browser.findElement(By.id(id)).getText();
	}

	private long number(String id) {
		String text = text(id).replace(",", "");
		return text.matches("\\d+") ? Long.parseLong(text) : -1;
	}

	private void setValue(String id, String value) {
		var input = this.browser.findElement(By.id(id));
		input.clear();
		input.sendKeys(value);
	}

	private void screenshot(String name) throws IOException {
		Path target = Path.of("target", name).toAbsolutePath();
		Files.copy(this.browser.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
		System.out.println("Screenshot of the sample page: " + target);
	}

}
