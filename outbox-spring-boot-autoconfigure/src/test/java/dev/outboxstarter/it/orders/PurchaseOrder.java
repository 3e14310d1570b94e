package dev.outboxstarter.it.orders;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;

import org.springframework.data.domain.AbstractAggregateRoot;

@Entity
public class PurchaseOrder extends AbstractAggregateRoot<PurchaseOrder> {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String customer;

	private String status;

	@OneToMany(mappedBy = "order", cascade = CascadeType.ALL)
	private List<Shipment> shipments = new ArrayList<>();

	protected PurchaseOrder() {
	}

	public PurchaseOrder(String customer) {
		this.customer = customer;
		this.status = "NEW";
	}

	public Long getId() {
		return this.id;
	}

	public String getCustomer() {
		return this.customer;
	}

	public String getStatus() {
		return this.status;
	}

	/** Raises an event for this order; for the tests that need any event. */
	public PurchaseOrder raise(Object event) {
		registerEvent(event);
		return this;
	}

	/** Raises an event without changing any field. */
	public PurchaseOrder requestInvoice(String reference) {
		registerEvent(new InvoiceRequested(reference));
		return this;
	}

	public PurchaseOrder changeStatus(String status) {
		this.status = status;
		return this;
	}

	/** Adds a new shipment, an aggregate with events of its own that only the cascade stores. */
	public Shipment planShipment(String reference) {
		Shipment shipment = new Shipment(this, reference);
		this.shipments.add(shipment);
		return shipment;
	}

	public PurchaseOrder pay() {
		this.status = "PAID";
		registerEvent(new OrderPaid(this.id));
		return this;
	}

}
