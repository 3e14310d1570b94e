package dev.outboxstarter.internal.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * One shipped migration ({@code V<version>__<description>.sql}) with its {@code ${table}} placeholder
 * replaced, as the scripts mode runs it. Like Flyway, it reads {@code executeInTransaction} from the
 * script's configuration next to it ({@code V<version>__<description>.sql.conf}), if there is one.
 *
 * @param version the version
 * @param name the file name
 * @param sql the statements
 * @param inTransaction whether its statements run in one transaction; those that do not (index builds that
 * must not hold back writes) are written to be run again after any of them failed
 */
public record MigrationScript(int version, String name, String sql, boolean inTransaction) {

	private static final Pattern NAME = Pattern.compile("V(\\d+)__.+\\.sql");

	private static final Pattern CREATED_INDEX = Pattern.compile(
			"CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+(?:CONCURRENTLY\\s+)?(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)\\s+ON",
			Pattern.CASE_INSENSITIVE);

	private static final String EXECUTE_IN_TRANSACTION = "executeInTransaction";

	/**
	 * The migrations at a location, in version order.
	 * @param location a {@code classpath:} location, e.g. {@code classpath:db/outbox/migration/h2}
	 * @param table the table name for the placeholder
	 * @param classLoader the class loader that finds them
	 * @return the migrations
	 */
	public static List<MigrationScript> at(String location, String table, ClassLoader classLoader) {
		List<MigrationScript> scripts = new ArrayList<>();
		try {
			for (Resource resource : new PathMatchingResourcePatternResolver(classLoader)
				.getResources(location + "/V*__*.sql")) {
				String name = resource.getFilename();
				Matcher matcher = NAME.matcher((name != null) ? name : "");
				if (!matcher.matches()) {
					throw new IllegalStateException("The migration " + resource + " has no whole version number: "
							+ "name it V<number>__<description>.sql");
				}
				scripts.add(new MigrationScript(Integer.parseInt(matcher.group(1)), name,
						resource.getContentAsString(StandardCharsets.UTF_8).replace("${table}", table),
						inTransaction(resource.createRelative(name + ".conf"))));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the migrations at " + location, ex);
		}
		scripts.sort(Comparator.comparingInt(MigrationScript::version));
		return scripts;
	}

	private static boolean inTransaction(Resource configuration) throws IOException {
		if (!configuration.exists()) {
			return true;
		}
		Properties properties = new Properties();
		try (InputStream input = configuration.getInputStream()) {
			properties.load(input);
		}
		String value = properties.getProperty(EXECUTE_IN_TRANSACTION, "true").strip();
		if (!value.equals("true") && !value.equals("false")) {
			throw new IllegalStateException("The migration configuration " + configuration + " sets "
					+ EXECUTE_IN_TRANSACTION + " to '" + value + "': set it to true or false");
		}
		return Boolean.parseBoolean(value);
	}

	/**
	 * The names of the indexes this migration creates with {@code CREATE INDEX}.
	 * @return the index names
	 */
	List<String> createdIndexes() {
		List<String> indexes = new ArrayList<>();
		for (String line : this.sql.split("\n")) {
			if (line.strip().startsWith("--")) {
				continue;
			}
			Matcher matcher = CREATED_INDEX.matcher(line);
			while (matcher.find()) {
				indexes.add(matcher.group(1));
			}
		}
		return indexes;
	}

}
