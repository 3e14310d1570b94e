package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.util.Assert;

/**
 * Exponential backoff with jitter for failed publishes, and the attempt after which an event is
 * {@code DEAD}.
 *
 * @param initialDelay delay after the first failure
 * @param multiplier growth of the delay per further failure
 * @param maxDelay upper bound of the delay
 * @param jitter fraction of the delay added or removed at random, at least 0 and less than 1 (1 could
 * make a delay zero)
 * @param maxAttempts attempts before the event is dead
 */
public record RetryPolicy(Duration initialDelay, double multiplier, Duration maxDelay, double jitter,
		int maxAttempts) {

	public RetryPolicy {
		Assert.isTrue(multiplier >= 1, "multiplier must be at least 1");
		Assert.isTrue(jitter >= 0 && jitter < 1, "jitter must be at least 0 and less than 1");
		Assert.isTrue(maxAttempts >= 1, "maxAttempts must be at least 1");
	}

	/**
	 * Whether an event that has now failed {@code attempts} times is dead.
	 * @param attempts failed attempts including this one
	 * @return whether it is dead
	 */
	public boolean isExhausted(int attempts) {
		return attempts >= this.maxAttempts;
	}

	/**
	 * The delay before the next attempt of an event that has failed {@code attempts} times.
	 * @param attempts failed attempts including the latest, at least 1
	 * @return the delay
	 */
	public Duration delayAfter(int attempts) {
		double base = this.initialDelay.toMillis() * Math.pow(this.multiplier, Math.max(0, attempts - 1));
		double capped = Math.min(base, this.maxDelay.toMillis());
		double spread = capped * this.jitter;
		double jittered = capped + ((spread > 0) ? ThreadLocalRandom.current().nextDouble(-spread, spread) : 0);
		return Duration.ofMillis(Math.max(0, Math.round(jittered)));
	}

}
