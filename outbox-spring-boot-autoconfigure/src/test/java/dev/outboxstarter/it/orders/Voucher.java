package dev.outboxstarter.it.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * An aggregate whose id the application assigns: Spring Data's {@code save()} merges a new one, so
 * the managed instance is a copy of the one that holds the events.
 */
@Entity
public class Voucher extends AbstractAggregateRoot<Voucher> {

	@Id
	private String code;

	protected Voucher() {
	}

	public Voucher(String code) {
		this.code = code;
	}

	public String getCode() {
		return this.code;
	}

	public Voucher issue(String reference) {
		registerEvent(new VoucherIssued(reference));
		return this;
	}

}
