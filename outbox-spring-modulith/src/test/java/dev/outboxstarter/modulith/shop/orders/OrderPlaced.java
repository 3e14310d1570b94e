package dev.outboxstarter.modulith.shop.orders;

import dev.outboxstarter.modulith.shop.ShopApplication;

import org.springframework.modulith.events.Externalized;

/**
 * One line of an order placed: externalized to the orders topic, keyed by the customer.
 *
 * @param orderId the order
 * @param customerId its customer, the message key
 * @param line the line's number in the order
 */
@Externalized(ShopApplication.ORDERS_TOPIC + "::#{#this.customerId()}")
public record OrderPlaced(String orderId, String customerId, int line) {
}
