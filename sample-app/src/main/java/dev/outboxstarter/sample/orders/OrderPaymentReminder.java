package dev.outboxstarter.sample.orders;

import java.math.BigDecimal;
import java.util.UUID;

import dev.outboxstarter.OutboxEvent;

/**
 * Reminds the customer to pay: raised with {@link OrderPlaced} when the order is placed, in the same
 * transaction, and published only once {@code sample.payment-reminder-delay} has passed (delayed
 * delivery), by whichever instance's relay polls then, also after a restart. No scheduler of the
 * application's own: the outbox row waits for its time. Whoever sends the reminder ignores it for an
 * order that was paid or cancelled meanwhile. It does not hold back the order's later events: an
 * {@link OrderPaid} committed during the delay is published at once.
 *
 * @param orderId the order
 * @param customer who ordered
 * @param amount what is to be paid
 */
@OutboxEvent(type = "OrderPaymentReminder", destination = "${sample.topic:orders}",
		delay = "${sample.payment-reminder-delay:PT10M}")
public record OrderPaymentReminder(UUID orderId, String customer, BigDecimal amount) {
}
