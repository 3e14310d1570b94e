package dev.outboxstarter.spi;

/**
 * What one batch delivery did.
 *
 * @param claimed rows locked
 * @param published rows acknowledged and marked published
 * @param failed rows whose attempt failed (not those postponed unsent, their destination paused)
 * @since 0.1.0
 */
public record DeliveryResult(int claimed, int published, int failed) {
}
