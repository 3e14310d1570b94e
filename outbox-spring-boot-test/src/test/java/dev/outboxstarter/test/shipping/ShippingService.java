package dev.outboxstarter.test.shipping;

import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class ShippingService {

	private final ShipmentRepository shipments;

	ShippingService(ShipmentRepository shipments) {
		this.shipments = shipments;
	}

	@Transactional
	public UUID dispatch(String address) {
		return this.shipments.save(Shipment.dispatch(address)).getId();
	}

	/** Delivers without save(): the outbox captures the event when the changed aggregate is flushed. */
	@Transactional
	public void deliver(UUID id) {
		this.shipments.findById(id).orElseThrow().deliver();
	}

	/** Dispatches, then fails: the shipment and its event roll back together. */
	@Transactional
	public void dispatchAndFail(String address) {
		this.shipments.save(Shipment.dispatch(address));
		throw new IllegalStateException("No courier for " + address);
	}

}
