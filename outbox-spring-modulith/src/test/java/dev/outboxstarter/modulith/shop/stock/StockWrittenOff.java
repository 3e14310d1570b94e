package dev.outboxstarter.modulith.shop.stock;

import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.modulith.shop.ShopApplication;

import org.springframework.modulith.events.Externalized;

/**
 * Stock of an item written off: externalized, and an outbox event of its own too, which outbox mode
 * refuses.
 *
 * @param itemId the item
 * @param quantity how many were written off
 */
@Externalized(ShopApplication.STOCK_TOPIC + "::#{#this.itemId()}")
@OutboxEvent(destination = ShopApplication.STOCK_TOPIC, key = "itemId")
public record StockWrittenOff(String itemId, int quantity) {
}
