package dev.outboxstarter.modulith.shop;

import java.util.Map;

import dev.outboxstarter.modulith.shop.shipping.ShipmentDispatched;
import dev.outboxstarter.modulith.shop.shipping.ShipmentNotice;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.RoutingTarget;

/**
 * A modular shop in outbox mode: its orders module externalizes {@code @Externalized} events, and its
 * shipping module an event it does not annotate, selected, mapped, routed and given headers by the
 * application's {@link EventExternalizationConfiguration}; its stock module's JPA aggregates raise
 * {@code @Externalized} domain events.
 */
@SpringBootApplication
public class ShopApplication {

	public static final String ORDERS_TOPIC = "modulith-orders";

	public static final String SHIPMENTS_TOPIC = "modulith-shipments";

	public static final String STOCK_TOPIC = "modulith-stock";

	@Bean
	EventExternalizationConfiguration eventExternalizationConfiguration() {
		return EventExternalizationConfiguration.externalizing()
			.select(EventExternalizationConfiguration.annotatedAsExternalized()
				.or(ShipmentDispatched.class::isInstance))
			.mapping(ShipmentDispatched.class,
					(dispatched) -> new ShipmentNotice(dispatched.orderId(), dispatched.carrier()))
			.route(ShipmentDispatched.class, (dispatched) -> RoutingTarget.forTarget(SHIPMENTS_TOPIC)
				.andKey("#{orderId()}"))
			.headers(ShipmentNotice.class, (notice) -> Map.of("shipment-carrier", notice.carrier()))
			.build();
	}

}
