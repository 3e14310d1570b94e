package dev.outboxstarter.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.fail;

/**
 * The console in headless Chromium, driven through Debian's chromedriver as the sample's page test
 * does: skipped where they are not installed, except under CI, where their absence fails the test.
 * Screenshots go to {@code target/screenshots/}, and with {@code -Doutbox.docs.update=true} also to
 * {@code docs/images/}, which the console's documentation shows.
 */
final class ConsoleBrowser implements AutoCloseable {

	private static final Path CHROMEDRIVER = Path.of(System.getProperty("sample.chromedriver", "/usr/bin/chromedriver"));

	private static final Path CHROMIUM = Path.of(System.getProperty("sample.chromium", "/usr/bin/chromium"));

	private final ChromeDriver driver;

	private final String root;

	private ConsoleBrowser(ChromeDriver driver, int port) {
		this.driver = driver;
		this.root = "http://localhost:" + port;
	}

	static ConsoleBrowser start(int port) throws IOException {
		if (!Files.isExecutable(CHROMEDRIVER) || !Files.isExecutable(CHROMIUM)) {
			String missing = "Chromium and its driver are needed for the console's browser tests (apt-get install "
					+ "chromium chromium-driver, or -Dsample.chromium=... -Dsample.chromedriver=...)";
			if (System.getenv("CI") != null) {
				fail(missing);
			}
			Assumptions.abort(missing);
		}
		ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
			.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
					"--disable-background-networking", "--disable-component-update", "--disable-sync",
					"--no-first-run", "--window-size=1280,1500",
					"--user-data-dir=" + Files.createTempDirectory("console-chromium"));
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.build();
		return new ConsoleBrowser(new ChromeDriver(service, options), port);
	}

	/**
	 * Signs in through the application's login form, which leads to the console.
	 */
	void signIn(String user, String password) {
		this.driver.get(this.root + "/login");
		this.driver.findElement(By.name("username")).sendKeys(user);
		this.driver.findElement(By.name("password")).sendKeys(password);
		this.driver.findElement(By.cssSelector("button[type=submit]")).click();
		until((driver) -> driver.getCurrentUrl().endsWith("/actuator/outboxconsole"));
		until((driver) -> text("user").equals(user));
	}

	void openConsole() {
		this.driver.get(this.root + "/actuator/outboxconsole");
		until((driver) -> !text("updated").isEmpty());
	}

	<T> T until(Function<WebDriver, T> condition) {
		return until(Duration.ofSeconds(30), condition);
	}

	<T> T until(Duration timeout, Function<WebDriver, T> condition) {
		return new WebDriverWait(this.driver, timeout, Duration.ofMillis(100)).until(condition);
	}

	String text(String id) {
		return this.driver.findElement(By.id(id)).getText();
	}

	long number(String id) {
		String text = text(id).replace(",", "");
		return text.matches("\\d+") ? Long.parseLong(text) : -1;
	}

	WebElement element(String id) {
		return this.driver.findElement(By.id(id));
	}

	void click(String id) {
		element(id).click();
	}

	void type(String id, String value) {
		WebElement input = element(id);
		input.clear();
		input.sendKeys(value);
	}

	/**
	 * Clicks the first row of a table body the page redraws on every refresh.
	 */
	void clickFirstRow(String tableBodyId) {
		clickRedrawn(By.cssSelector("#" + tableBodyId + " tr"));
	}

	private void clickRedrawn(By element) {
		new WebDriverWait(this.driver, Duration.ofSeconds(30), Duration.ofMillis(100))
			.ignoring(StaleElementReferenceException.class)
			.ignoring(NoSuchElementException.class)
			.withMessage(() -> "no " + element + " to click; the page says '" + text("message") + "' and lists:\n"
					+ text("results"))
			.until((driver) -> {
				driver.findElement(element).click();
				return true;
			});
	}

	void select(String id, String option) {
		new Select(element(id)).selectByVisibleText(option);
	}

	/** The options of a select, as the page shows them. */
	List<String> options(String id) {
		return new Select(element(id)).getOptions().stream().map(WebElement::getText).toList();
	}

	void scrollTo(String id) {
		this.driver.executeScript("document.getElementById(arguments[0]).scrollIntoView()", id);
	}

	void acceptConfirmation() {
		until((driver) -> driver.switchTo().alert()).accept();
	}

	/** The action buttons the page shows. */
	List<WebElement> actionButtons() {
		return this.driver.findElements(By.cssSelector("button.action"));
	}

	/** The rows of the search results, by event id. */
	@SuppressWarnings("unchecked")
	List<String> resultIds() {
		return (List<String>) this.driver
			.executeScript("return [...document.querySelectorAll('#results tr')].map((row) => row.dataset.id);");
	}

	void openResult(String id) {
		clickRedrawn(By.cssSelector("#results tr[data-id='" + id + "']"));
		until((driver) -> text("detail-id").equals(id));
	}

	/** The values a chart line is drawn from. */
	List<Double> chartValues(String series) {
		String values = this.driver.findElement(By.cssSelector("path[data-series='" + series + "']"))
			.getDomAttribute("data-values");
		return (values != null) ? List.of(values.split(",")).stream().filter((value) -> !value.isEmpty())
			.map(Double::valueOf)
			.toList() : List.of();
	}

	/**
	 * Sends a request from the page, as a user who forges it would, with the page's session and CSRF
	 * token.
	 * @return the response's status
	 */
	long forge(String method, String path, Map<String, String> body) {
		Object status = this.driver.executeAsyncScript("""
				const done = arguments[arguments.length - 1];
				const token = document.cookie.match(/(?:^|;\\s*)XSRF-TOKEN=([^;]+)/);
				fetch(location.pathname + arguments[1], { method: arguments[0], body: JSON.stringify(arguments[2]),
				  headers: Object.assign({ 'Content-Type': 'application/json' },
				    token ? { 'X-XSRF-TOKEN': decodeURIComponent(token[1]) } : {}) })
				  .then((response) => done(response.status), (error) => done(String(error)));
				""", method, path, body);
		return (Long) status;
	}

	/** Resources the page loaded from another origin. */
	List<?> loadedFromElsewhere() {
		return (List<?>) this.driver.executeScript("return performance.getEntriesByType('resource')"
				+ ".map((entry) => entry.name).filter((url) => !url.startsWith(location.origin));");
	}

	void screenshot(String name) throws IOException {
		Path target = Path.of("target", "screenshots", name).toAbsolutePath();
		Files.createDirectories(target.getParent());
		Files.copy(this.driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
		if (Boolean.getBoolean("outbox.docs.update")) {
			Files.copy(target, Path.of("..", "docs", "images", name), StandardCopyOption.REPLACE_EXISTING);
		}
	}

	@Override
	public void close() {
		this.driver.quit();
	}

}
