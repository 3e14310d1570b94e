package dev.outboxstarter.test.shipping;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.springframework.data.domain.AbstractAggregateRoot;

@Entity
@Table(name = "kit_shipment")
public class Shipment extends AbstractAggregateRoot<Shipment> {

	@Id
	private UUID id;

	private String address;

	private boolean delivered;

	protected Shipment() {
	}

	public static Shipment dispatch(String address) {
		Shipment shipment = new Shipment();
		shipment.id = UUID.randomUUID();
		shipment.address = address;
		shipment.registerEvent(new ShipmentDispatched(shipment.id, address));
		return shipment;
	}

	public void deliver() {
		this.delivered = true;
		registerEvent(new ShipmentDelivered(this.id));
	}

	public UUID getId() {
		return this.id;
	}

	public boolean isDelivered() {
		return this.delivered;
	}

}
