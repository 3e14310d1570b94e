package dev.outboxstarter.it.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;

import org.springframework.data.domain.AbstractAggregateRoot;

/** An aggregate with no repository of its own: stored through its order's cascade. */
@Entity
public class Shipment extends AbstractAggregateRoot<Shipment> {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	@ManyToOne(fetch = FetchType.LAZY)
	private PurchaseOrder order;

	private String reference;

	protected Shipment() {
	}

	Shipment(PurchaseOrder order, String reference) {
		this.order = order;
		this.reference = reference;
		registerEvent(new ShipmentPlanned(reference));
	}

	public Long getId() {
		return this.id;
	}

	public Shipment dispatch(String reference) {
		registerEvent(new ShipmentPlanned(reference));
		return this;
	}

}
