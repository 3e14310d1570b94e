package dev.outboxstarter.internal.delivery;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What one instance remembers of outages stays bounded however many destinations it sends to, and
 * still answers exactly whether another destination acknowledged since a send.
 */
public class OutagesTests {

	private static final RetryPolicy RETRY = new RetryPolicy(Duration.ofMinutes(1), 2, Duration.ofMinutes(5), 0, 10);

	@Test
	void acknowledgementsOfAMillionDestinationsKeepTheStateBounded() {
		Outages outages = new Outages(RETRY);
		List<WeakReference<String>> earlier = new ArrayList<>();

		for (int i = 0; i < 1_000_000; i++) {
			String destination = "tenant-" + i;
			if (i < 1000) {
				earlier.add(new WeakReference<>(destination));
			}
			outages.destinationAcknowledged(new Destination((i % 2 == 0) ? "kafka" : "rabbit", destination), i);
		}

		// Held on to, the destinations acknowledged before the latest ones would stay reachable.
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
			System.gc();
			return earlier.stream().allMatch((reference) -> reference.get() == null);
		});
		assertThat(outages.acknowledgedElsewhereSince(new Destination("kafka", "tenant-999998"), 999_998)).isFalse();
		assertThat(outages.acknowledgedElsewhereSince(new Destination("kafka", "tenant-999998"), 999_996)).isTrue();
		assertThat(outages.acknowledgedElsewhereSince(new Destination("kafka", "missing"), 999_998)).isTrue();
		assertThat(outages.acknowledgedElsewhereSince(new Destination("local", "handler"), 0)).isFalse();
	}

	@Test
	void acknowledgedElsewhereSinceAnswersAsIfEveryDestinationsLatestAcknowledgementWereKept() {
		Outages outages = new Outages(RETRY);
		Map<Destination, Long> latest = new HashMap<>();
		List<Destination> destinations = List.of(new Destination("kafka", "a"), new Destination("kafka", "b"),
				new Destination("kafka", "c"), new Destination("kafka", "d"), new Destination("rabbit", "a"));
		Random random = new Random(21);
		long clock = Long.MAX_VALUE - 5_000;
		for (int i = 0; i < 20_000; i++) {
			// Acknowledgements complete on several threads: their times do not arrive in order, and
			// nanoTime may overflow.
			clock += random.nextInt(3);
			long at = clock - random.nextInt(20);
			Destination acknowledging = destinations.get(random.nextInt(destinations.size()));
			outages.destinationAcknowledged(acknowledging, at);
			latest.merge(acknowledging, at, (one, other) -> (other - one > 0) ? other : one);

			Destination asked = destinations.get(random.nextInt(destinations.size()));
			long since = clock - random.nextInt(40);
			boolean expected = latest.entrySet()
				.stream()
				.anyMatch((acknowledged) -> acknowledged.getKey().transport().equals(asked.transport())
						&& !acknowledged.getKey().equals(asked) && acknowledged.getValue() - since >= 0);
			assertThat(outages.acknowledgedElsewhereSince(asked, since)).as("%s since %d, step %d", asked, since, i)
				.isEqualTo(expected);
		}
	}

	@Test
	void destinationsBeyondTheCapAreNotPausedWhileThePausedOnesCanPauseLonger() {
		Outages outages = new Outages(RETRY);
		long now = System.nanoTime();
		for (int i = 0; i < Outages.MAX_PAUSED_DESTINATIONS; i++) {
			assertThat(outages.pause(new Destination("kafka", "missing-" + i), "unknown topic", now)).isNotNull();
		}

		Pause beyondTheCap = outages.pause(new Destination("kafka", "one-more"), "unknown topic", now);
		Pause longer = outages.pause(new Destination("kafka", "missing-0"), "unknown topic", now);

		assertThat(beyondTheCap).isNull();
		assertThat(longer).isNotNull();
		assertThat(longer.times()).isEqualTo(2);
		assertThat(outages.pausedDestinations()).hasSize(Outages.MAX_PAUSED_DESTINATIONS);
		assertThat(outages.endPause(new Destination("kafka", "missing-1"))).isTrue();
		assertThat(outages.pause(new Destination("kafka", "one-more"), "unknown topic", now)).isNotNull();
	}

}
