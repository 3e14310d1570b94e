package dev.outboxstarter.faults;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.jspecify.annotations.Nullable;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * One of the keys of the fault suite, in the schema of a tenant or in the primary one. Each committed
 * increment raises {@link Counted} with the new total, so the totals a key's events carry are gapless
 * in commit order.
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

	Counter increment(String txId, @Nullable String tenant) {
		this.total++;
		registerEvent(new Counted(this.id, this.total, txId, tenant));
		return this;
	}

	Counter poison(String txId, @Nullable String tenant, String padding) {
		registerEvent(new Poison(this.id, txId, tenant, padding));
		return this;
	}

}
