package dev.outboxstarter.internal.schema;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Reads which of a table's migrations it has had, whoever applied them: the scripts mode, which records
 * them in {@code <table>_script_history}; Flyway, in {@code <table>_schema_history}; or the scripts mode
 * of the releases before {@value #FIRST_RECORDED_VERSION}, which recorded nothing and is recognised by
 * what it created.
 */
final class AppliedVersions {

	/**
	 * The first version the scripts mode recorded. Before it, the scripts created the table once (version
	 * 1) and only ever added indexes, so what such a table has had shows in the indexes it has.
	 */
	static final int FIRST_RECORDED_VERSION = 4;

	private final NamedParameterJdbcTemplate jdbc;

	private final SchemaStatements statements;

	private final String table;

	private final List<MigrationScript> scripts;

	AppliedVersions(NamedParameterJdbcTemplate jdbc, SchemaStatements statements, String table,
			List<MigrationScript> scripts) {
		this.jdbc = jdbc;
		this.statements = statements;
		this.table = table;
		this.scripts = scripts;
	}

	/**
	 * The versions the table has had.
	 * @return the versions, in order
	 */
	Set<Integer> read() {
		Set<Integer> applied = new TreeSet<>(recordedByScripts());
		applied.addAll(recordedByFlyway());
		if (!applied.contains(1) && tableExists(this.table)) {
			applied.addAll(recognised());
		}
		return applied;
	}

	/**
	 * The versions the table lacks that it cannot be used without: every missing version but those that
	 * run outside a transaction, which only build or drop indexes (the rule for such migrations), so that
	 * the table works the same before and after them. An instance that finds none while another migrates
	 * the table can start without waiting for it.
	 * @return the versions, in order
	 */
	List<Integer> missingAndNeeded() {
		Set<Integer> applied = read();
		return this.scripts.stream()
			.filter((script) -> !applied.contains(script.version()) && script.inTransaction())
			.map(MigrationScript::version)
			.toList();
	}

	/**
	 * The versions in the scripts' record.
	 * @return the versions, empty without the record
	 */
	Set<Integer> recordedByScripts() {
		if (!tableExists(scriptHistory())) {
			return Set.of();
		}
		return new TreeSet<>(this.jdbc.queryForList(this.statements.scriptHistoryVersions(), Map.of(), Integer.class));
	}

	/**
	 * The highest version up to which the table has had every version, 0 for none.
	 * @param applied the versions it has had
	 * @return the version
	 */
	int contiguous(Set<Integer> applied) {
		int version = 0;
		for (MigrationScript script : this.scripts) {
			if (!applied.contains(script.version())) {
				break;
			}
			version = script.version();
		}
		return version;
	}

	/**
	 * Records that a version was applied, creating the record first if there is none.
	 * @param script the migration
	 */
	void record(MigrationScript script) {
		if (!tableExists(scriptHistory())) {
			this.jdbc.getJdbcTemplate().execute(this.statements.createScriptHistory());
		}
		this.jdbc.update(this.statements.recordScript(),
				new MapSqlParameterSource("version", script.version()).addValue("script", script.name()));
	}

	boolean flywayHistoryExists() {
		return tableExists(this.table + "_schema_history");
	}

	boolean tableExists(String name) {
		Integer count = this.jdbc.queryForObject(this.statements.tableExists(), Map.of("table", name), Integer.class);
		return count != null && count > 0;
	}

	private Set<Integer> recordedByFlyway() {
		if (!flywayHistoryExists()) {
			return Set.of();
		}
		Set<Integer> applied = new TreeSet<>();
		this.jdbc.query(this.statements.flywayHistoryVersions(), (rs) -> {
			Integer version = wholeNumber(rs.getString(1));
			if (version == null) {
				return;
			}
			if ("BASELINE".equals(rs.getString(2))) {
				// A baseline stands for every version up to its own.
				this.scripts.stream()
					.filter((script) -> script.version() <= version)
					.forEach((script) -> applied.add(script.version()));
			}
			else {
				applied.add(version);
			}
		});
		return applied;
	}

	private Set<Integer> recognised() {
		Set<Integer> applied = new TreeSet<>();
		for (MigrationScript script : this.scripts) {
			if (script.version() == 1) {
				applied.add(1);
			}
			else if (script.version() < FIRST_RECORDED_VERSION) {
				List<String> indexes = script.createdIndexes();
				if (!indexes.isEmpty() && indexes.stream().allMatch(this::indexExists)) {
					applied.add(script.version());
				}
			}
		}
		return applied;
	}

	private boolean indexExists(String index) {
		Integer count = this.jdbc.queryForObject(this.statements.indexExists(),
				new MapSqlParameterSource("table", this.table).addValue("index", index), Integer.class);
		return count != null && count > 0;
	}

	private String scriptHistory() {
		return this.table + "_script_history";
	}

	private static @Nullable Integer wholeNumber(String version) {
		try {
			return Integer.valueOf(version);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
