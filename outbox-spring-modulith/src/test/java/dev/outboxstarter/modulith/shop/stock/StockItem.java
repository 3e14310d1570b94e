package dev.outboxstarter.modulith.shop.stock;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * An item's stock, an aggregate that raises {@link StockReserved} and {@link StockWrittenOff} as its
 * {@code @DomainEvents}.
 */
@Entity
@Table(name = "modulith_shop_stock")
public class StockItem extends AbstractAggregateRoot<StockItem> {

	@Id
	private String id;

	private int available;

	protected StockItem() {
	}

	StockItem(String id, int available) {
		this.id = id;
		this.available = available;
	}

	void reserve(int quantity) {
		this.available -= quantity;
		registerEvent(new StockReserved(this.id, quantity));
	}

	void writeOff(int quantity) {
		this.available -= quantity;
		registerEvent(new StockWrittenOff(this.id, quantity));
	}

	int available() {
		return this.available;
	}

}
