package dev.outboxstarter.internal.capture;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

public class UuidV7Tests {

	@Test
	void idsAreVersion7WithTheRfcVariantAndTheCurrentTimestamp() {
		long before = System.currentTimeMillis();
		UUID id = UuidV7.generate();
		long after = System.currentTimeMillis();

		assertThat(id.version()).isEqualTo(7);
		assertThat(id.variant()).isEqualTo(2);
		assertThat(id.getMostSignificantBits() >>> 16).isBetween(before, after);
	}

	@Test
	void idsAreUnique() {
		Set<UUID> ids = new HashSet<>();
		for (int i = 0; i < 100_000; i++) {
			ids.add(UuidV7.generate());
		}
		assertThat(ids).hasSize(100_000);
	}

}
