package dev.outboxstarter.schemaregistry.shop;

import java.util.Map;

import javax.sql.DataSource;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxRoute;
import dev.outboxstarter.schemaregistry.proto.ShipmentDispatched;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Ships orders: a row of the shop's and the Avro event that says so, committed together.
 */
@Service
public class Shipping {

	/**
	 * The shop's own table.
	 */
	public static final String TABLE = "schema_registry_shop_shipment";

	private final JdbcTemplate jdbc;

	private final Outbox outbox;

	/**
	 * Creates the shop's table, unless an earlier test did: its rows are told apart by their order ids.
	 * @param dataSource the shop's database
	 */
	public static void createTable(DataSource dataSource) {
		new JdbcTemplate(dataSource).execute("CREATE TABLE IF NOT EXISTS " + TABLE
				+ " (order_id VARCHAR(64) PRIMARY KEY, carrier VARCHAR(64))");
	}

	Shipping(JdbcTemplate jdbc, Outbox outbox) {
		this.jdbc = jdbc;
		this.outbox = outbox;
	}

	@Transactional
	public void ship(String orderId, String carrier) {
		this.jdbc.update("INSERT INTO " + TABLE + " (order_id, carrier) VALUES (?, ?)", orderId, carrier);
		this.outbox.publish(OrderShipped.newBuilder().setOrderId(orderId).setCarrier(carrier).build());
	}

	/**
	 * Ships an order and announces it on a topic of the caller's choosing, a route of the programmatic
	 * API that names no payload format: the Avro serializer claims the generated class.
	 */
	@Transactional
	public void shipAnnouncingOn(String topic, String orderId, String carrier) {
		this.jdbc.update("INSERT INTO " + TABLE + " (order_id, carrier) VALUES (?, ?)", orderId, carrier);
		this.outbox.publish(OutboxRoute.kafka("order-shipped", topic, orderId),
				OrderShipped.newBuilder().setOrderId(orderId).setCarrier(carrier).build(), Map.of());
	}

	/**
	 * Ships an order and raises the Protobuf event of it, routed by the application's properties.
	 */
	@Transactional
	public void dispatch(String orderId, String shipmentId, int parcels) {
		this.jdbc.update("INSERT INTO " + TABLE + " (order_id, carrier) VALUES (?, ?)", orderId, "own-fleet");
		this.outbox.publish(ShipmentDispatched.newBuilder()
			.setOrderId(orderId)
			.setShipmentId(shipmentId)
			.setParcels(parcels)
			.build());
	}

	@Transactional
	public void shipThenFail(String orderId, String carrier) {
		ship(orderId, carrier);
		throw new IllegalStateException("The carrier refused order " + orderId);
	}

}
