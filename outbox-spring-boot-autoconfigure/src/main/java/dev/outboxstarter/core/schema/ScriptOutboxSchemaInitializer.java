package dev.outboxstarter.core.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import dev.outboxstarter.core.store.DatabaseVendor;
import dev.outboxstarter.core.store.OutboxStore;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * Creates the outbox (or inbox) table from the shipped SQL scripts when it does not exist, for
 * applications without Flyway. An existing table is left as it is.
 */
public class ScriptOutboxSchemaInitializer extends OutboxSchemaInitializer {

	private static final Pattern VERSION = Pattern.compile("V(\\d+)__.*\\.sql");

	private final DataSource dataSource;

	private final String location;

	private final OutboxStore store;

	private final String table;

	/**
	 * Creates the initializer.
	 * @param dataSource the data source
	 * @param location the scripts, e.g. {@link DatabaseVendor#migrationLocation()}
	 * @param store tells whether the table exists
	 * @param table the table they create, put into their {@code ${table}} placeholder
	 */
	public ScriptOutboxSchemaInitializer(DataSource dataSource, String location, OutboxStore store, String table) {
		this.dataSource = dataSource;
		this.location = location;
		this.store = store;
		this.table = table;
	}

	@Override
	protected void initialize() {
		if (this.store.tableExists(this.table)) {
			return;
		}
		ResourceDatabasePopulator populator = new ResourceDatabasePopulator();
		for (Resource script : scripts()) {
			populator.addScript(new ByteArrayResource(read(script).replace("${table}", this.table).getBytes(StandardCharsets.UTF_8),
					script.getDescription()));
		}
		populator.execute(this.dataSource);
	}

	private Resource[] scripts() {
		try {
			Resource[] scripts = new PathMatchingResourcePatternResolver(getClass().getClassLoader())
				.getResources(this.location + "/V*__*.sql");
			Arrays.sort(scripts, Comparator.comparingInt(ScriptOutboxSchemaInitializer::version));
			return scripts;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static int version(Resource script) {
		Matcher matcher = VERSION.matcher(script.getFilename());
		return matcher.matches() ? Integer.parseInt(matcher.group(1)) : Integer.MAX_VALUE;
	}

	private static String read(Resource script) {
		try {
			return script.getContentAsString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
