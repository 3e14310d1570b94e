package dev.outboxstarter.internal.jdbc;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.outboxstarter.OutboxConfigurationException;
import org.jspecify.annotations.Nullable;

/**
 * The oldest release of a database that runs every statement of the outbox. Checked at start-up, so
 * that an older database is refused with its version and the one needed, instead of failing every
 * claim later with a syntax error.
 *
 * @param database the database's name as users know it
 * @param oldest the oldest supported release, as the database names its releases
 * @param needs what the outbox needs of that release
 */
record SupportedVersion(String database, String oldest, String needs) {

	/** MySQL's drivers report a MariaDB server as MySQL, its version prefixed for old MySQL clients. */
	private static final String MARIADB_VERSION_PREFIX = "5.5.5-";

	private static final Pattern RELEASE = Pattern.compile("(\\d+)(?:\\.(\\d+))?");

	private static final SupportedVersion POSTGRESQL = new SupportedVersion("PostgreSQL", "11",
			"its schema set-up locks with hashtextextended");

	private static final SupportedVersion MARIADB = new SupportedVersion("MariaDB", "10.6",
			"its claims lock rows with SELECT ... FOR UPDATE SKIP LOCKED");

	private static final SupportedVersion MYSQL = new SupportedVersion("MySQL", "8.0",
			"its claims lock rows with SELECT ... FOR UPDATE SKIP LOCKED");

	/**
	 * The supported version for a database's product name and version, as its JDBC driver reports them.
	 * @param product the product name
	 * @param version the product version
	 * @return the oldest supported version of that database, or {@code null} when any is (H2)
	 */
	static @Nullable SupportedVersion of(String product, String version) {
		String name = product.toLowerCase(Locale.ROOT);
		if (name.contains("postgresql")) {
			return POSTGRESQL;
		}
		if (name.contains("mariadb") || version.toLowerCase(Locale.ROOT).contains("mariadb")) {
			return MARIADB;
		}
		if (name.contains("mysql")) {
			return MYSQL;
		}
		return null;
	}

	/**
	 * Refuses a version older than this one.
	 * @param version the product version the driver reports
	 * @throws OutboxConfigurationException naming the version found and the one needed
	 */
	void check(String version) {
		String release = version.startsWith(MARIADB_VERSION_PREFIX) && this == MARIADB
				? version.substring(MARIADB_VERSION_PREFIX.length()) : version;
		int[] found = majorAndMinor(release);
		if (found == null) {
			// A version the outbox cannot read is left to the database: its statements tell.
			return;
		}
		int[] needed = majorAndMinor(this.oldest);
		if (found[0] < needed[0] || (found[0] == needed[0] && found[1] < needed[1])) {
			String oldestRelease = this.database + " " + this.oldest;
			throw new OutboxConfigurationException("The outbox needs " + oldestRelease + " or later (" + this.needs
					+ "), but the DataSource connects to " + this.database + " " + release,
					"Upgrade the database to " + oldestRelease + " or later, or set outbox.enabled=false");
		}
	}

	private static int @Nullable [] majorAndMinor(String version) {
		Matcher matcher = RELEASE.matcher(version);
		if (!matcher.lookingAt()) {
			return null;
		}
		int minor = (matcher.group(2) != null) ? Integer.parseInt(matcher.group(2)) : 0;
		return new int[] { Integer.parseInt(matcher.group(1)), minor };
	}

}
