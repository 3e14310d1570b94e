package dev.outboxstarter.internal.capture;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Generates RFC 9562 version 7 UUIDs: a millisecond timestamp followed by random bits, so ids of
 * rows written close together are close together in a primary-key index.
 */
public final class UuidV7 {

	private UuidV7() {
	}

	public static UUID generate() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long millis = System.currentTimeMillis();
		long mostSignificant = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
		long leastSignificant = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
		return new UUID(mostSignificant, leastSignificant);
	}

}
