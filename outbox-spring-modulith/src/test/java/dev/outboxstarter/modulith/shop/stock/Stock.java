package dev.outboxstarter.modulith.shop.stock;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The stock module's service: reserves stock of an aggregate in one transaction.
 */
@Service
public class Stock {

	private final StockItems items;

	Stock(StockItems items) {
		this.items = items;
	}

	/**
	 * Stocks a new item and reserves some of it, saving the aggregate: Spring Data publishes its event.
	 * @param itemId the item
	 * @param available how many are in stock
	 * @param quantity how many to reserve
	 */
	@Transactional
	public void stockAndReserve(String itemId, int available, int quantity) {
		StockItem item = new StockItem(itemId, available);
		item.reserve(quantity);
		this.items.save(item);
	}

	/**
	 * Reserves stock of an item without saving it: the flush at commit raises its event, which the
	 * outbox publishes to the application once the flush is over.
	 * @param itemId the item
	 * @param quantity how many to reserve
	 */
	@Transactional
	public void reserve(String itemId, int quantity) {
		this.items.findById(itemId).orElseThrow().reserve(quantity);
	}

	/**
	 * Writes off stock of an item without saving it: the flush at commit raises its event.
	 * @param itemId the item
	 * @param quantity how many to write off
	 */
	@Transactional
	public void writeOff(String itemId, int quantity) {
		this.items.findById(itemId).orElseThrow().writeOff(quantity);
	}

	/**
	 * Reserves stock of an item without saving it, then fails: the transaction rolls back.
	 * @param itemId the item
	 * @param quantity how many to reserve
	 */
	@Transactional
	public void reserveAndFail(String itemId, int quantity) {
		StockItem item = this.items.findById(itemId).orElseThrow();
		item.reserve(quantity);
		this.items.flush();
		throw new IllegalStateException("No carrier for item " + itemId);
	}

}
