package dev.outboxstarter.modulith.shop.stock;

import dev.outboxstarter.modulith.shop.ShopApplication;

import org.springframework.modulith.events.Externalized;

/**
 * Stock of an item reserved: an aggregate's domain event, externalized to the stock topic, keyed by
 * the item.
 *
 * @param itemId the item, the message key
 * @param quantity how many were reserved
 */
@Externalized(ShopApplication.STOCK_TOPIC + "::#{#this.itemId()}")
public record StockReserved(String itemId, int quantity) {
}
