package dev.outboxstarter.modulith.shop.stock;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * The stock's repository, which publishes the aggregates' events when it saves them.
 */
interface StockItems extends JpaRepository<StockItem, String> {

}
