package dev.outboxstarter.schemaregistry.shop;

import java.util.UUID;

import dev.outboxstarter.schemaregistry.proto.ShipmentDispatched;
import dev.outboxstarter.schemaregistry.server.SchemaRegistryProcess;
import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.PublishedOutboxEvents;
import dev.outboxstarter.test.RecordedOutboxEvent;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test kit reads Avro and Protobuf payloads back with this module's serializers, against the real
 * registry, as an application's tests do: with recording transports in place of Kafka and RabbitMQ.
 */
@SpringBootTest(classes = ShopApplication.class,
		properties = { "outbox.table-name=" + ShopTestKitTests.OUTBOX_TABLE, "outbox.cloudevents.source=/shop",
				"outbox.routes[dev.outboxstarter.schemaregistry.proto.ShipmentDispatched].destination=kit-shipments",
				"outbox.routes[dev.outboxstarter.schemaregistry.proto.ShipmentDispatched].key=orderId" })
@AutoConfigureOutbox
class ShopTestKitTests {

	static final String OUTBOX_TABLE = "schema_registry_kit_outbox";

	static {
		TestDatabase.POSTGRESQL.dropTable(OUTBOX_TABLE);
		Shipping.createTable(TestDatabase.POSTGRESQL.dataSource());
	}

	@Autowired
	private Shipping shipping;

	@Autowired
	private PublishedOutboxEvents published;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry properties) {
		properties.add("outbox.schema-registry.url", () -> SchemaRegistryProcess.shared().registryApiUrl());
		TestDatabase.POSTGRESQL.register(properties);
	}

	@Test
	void publishedAvroEventsAreReadBackAsTheGeneratedClass() {
		String order = "order-" + UUID.randomUUID();
		this.shipping.ship(order, "tortoise-express");

		OrderShipped shipped = this.published.await(OrderShipped.class, (event) -> order.equals(event.getOrderId()))
			.payloadAs(OrderShipped.class);
		assertThat(shipped.getCarrier()).isEqualTo("tortoise-express");
		assertThat(this.published.all()).filteredOn((event) -> order.equals(event.key()))
			.extracting(RecordedOutboxEvent::contentType)
			.containsOnly("application/avro");
	}

	@Test
	void publishedProtobufEventsAreReadBackAsTheGeneratedClass() {
		String order = "order-" + UUID.randomUUID();
		this.shipping.dispatch(order, "shipment-7", 2);

		ShipmentDispatched dispatched = this.published
			.await(ShipmentDispatched.class, (event) -> order.equals(event.getOrderId()))
			.payloadAs(ShipmentDispatched.class);
		assertThat(dispatched.getParcels()).isEqualTo(2);
	}

}
