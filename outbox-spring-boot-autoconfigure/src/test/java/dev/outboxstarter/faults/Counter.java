package dev.outboxstarter.faults;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * One of the keys of the fault suite. Each committed increment raises {@link Counted} with the new
 * total, so the totals a key's events carry are gapless in commit order.
 */
@Entity
@Table(name = Counter.TABLE)
public class Counter extends AbstractAggregateRoot<Counter> {

	static final String TABLE = "fault_counter";

	@Id
	private Integer id;

	private long total;

	protected Counter() {
	}

	public Integer getId() {
		return this.id;
	}

	public long getTotal() {
		return this.total;
	}

	Counter increment(String txId) {
		this.total++;
		registerEvent(new Counted(this.id, this.total, txId));
		return this;
	}

	Counter poison(String txId, String padding) {
		registerEvent(new Poison(this.id, txId, padding));
		return this;
	}

}
