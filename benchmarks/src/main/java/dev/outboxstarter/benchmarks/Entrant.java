package dev.outboxstarter.benchmarks;

import java.util.Locale;

import org.springframework.util.Assert;

/**
 * An entry of a contender list: a contender, run from the suite's own class path or, listed as
 * {@code NAME@baseline}, from {@code baseline-classpath}'s, as a contender of its own.
 *
 * @param contender the contender
 * @param baseline whether it runs from the baseline build's class path
 */
record Entrant(Contenders contender, boolean baseline) {

	static final String BASELINE = "@baseline";

	static Entrant of(Contenders contender) {
		return new Entrant(contender, false);
	}

	static Entrant parse(String name) {
		int suffix = name.indexOf('@');
		if (suffix < 0) {
			return of(Contenders.valueOf(name));
		}
		Assert.isTrue(name.substring(suffix).equals(BASELINE),
				() -> "Unknown suffix in contender " + name + ": the only one is " + BASELINE);
		return new Entrant(Contenders.valueOf(name.substring(0, suffix)), true);
	}

	String label() {
		return this.baseline ? this.contender.label() + ", baseline build" : this.contender.label();
	}

	/** The start of its log's and profiles' file names. */
	String fileName() {
		String name = this.contender.name().toLowerCase(Locale.ROOT);
		return this.baseline ? name + "-baseline" : name;
	}

	/** As listed, and as the key of its runs in {@code results.json}. */
	@Override
	public String toString() {
		return this.baseline ? this.contender.name() + BASELINE : this.contender.name();
	}

}
