package dev.outboxstarter.internal.delivery;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

public class RetryPolicyTests {

	@Test
	void delayGrowsExponentiallyUpToTheMaximum() {
		RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10), 0, 10);

		assertThat(policy.delayAfter(1)).isEqualTo(Duration.ofSeconds(1));
		assertThat(policy.delayAfter(2)).isEqualTo(Duration.ofSeconds(2));
		assertThat(policy.delayAfter(4)).isEqualTo(Duration.ofSeconds(8));
		assertThat(policy.delayAfter(5)).isEqualTo(Duration.ofSeconds(10));
		assertThat(policy.delayAfter(60)).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void jitterSpreadsDelaysWithinItsFraction() {
		RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(10), 1.0, Duration.ofMinutes(1), 0.2, 10);

		for (int i = 0; i < 200; i++) {
			assertThat(policy.delayAfter(1)).isBetween(Duration.ofSeconds(8), Duration.ofSeconds(12));
		}
		assertThat(java.util.stream.IntStream.range(0, 50).mapToObj((i) -> policy.delayAfter(1)).distinct().count())
			.isGreaterThan(1);
	}

	@Test
	void rowIsExhaustedAtMaxAttempts() {
		RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10), 0, 3);

		assertThat(policy.isExhausted(2)).isFalse();
		assertThat(policy.isExhausted(3)).isTrue();
	}

	@Test
	void invalidSettingsAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetryPolicy(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(10), 0, 3))
			.withMessageContaining("multiplier");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetryPolicy(Duration.ofSeconds(1), 2, Duration.ofSeconds(10), 1.5, 3))
			.withMessageContaining("jitter");
	}

}
