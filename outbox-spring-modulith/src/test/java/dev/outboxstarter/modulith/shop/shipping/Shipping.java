package dev.outboxstarter.modulith.shop.shipping;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The shipping module's service.
 */
@Service
public class Shipping {

	private final ApplicationEventPublisher events;

	Shipping(ApplicationEventPublisher events) {
		this.events = events;
	}

	/**
	 * Dispatches a shipment.
	 * @param shipmentId the shipment
	 * @param orderId the order it ships
	 * @param carrier who carries it
	 */
	@Transactional
	public void dispatch(String shipmentId, String orderId, String carrier) {
		this.events.publishEvent(new ShipmentDispatched(shipmentId, orderId, carrier));
	}

}
