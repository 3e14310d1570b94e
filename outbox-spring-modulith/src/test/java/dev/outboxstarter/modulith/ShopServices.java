package dev.outboxstarter.modulith;

import java.nio.file.Path;

import dev.outboxstarter.modulith.shop.ShopApplication;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import dev.outboxstarter.testsupport.TestDatabase;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The services of the shop's tests, set up once for the run: PostgreSQL with the shop's tables and no
 * outbox table yet, and a real Kafka broker in a process of its own, which a test can stop and start
 * again while the application knows it.
 */
final class ShopServices {

	static final String OUTBOX_TABLE = "outbox_modulith_shop";

	private static KafkaBrokerProcess broker;

	private ShopServices() {
	}

	/**
	 * The broker, started with the shop's topics and a clean database on first use.
	 * @return the running broker
	 */
	static synchronized KafkaBrokerProcess broker() {
		if (broker == null) {
			TestDatabase.POSTGRESQL.dropTable(OUTBOX_TABLE);
			JdbcTemplate jdbc = new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource());
			jdbc.execute("DROP TABLE IF EXISTS modulith_shop_order");
			jdbc.execute("CREATE TABLE modulith_shop_order (id VARCHAR(64) PRIMARY KEY, customer VARCHAR(64) NOT NULL)");
			jdbc.execute("DROP TABLE IF EXISTS modulith_shop_stock");
			jdbc.execute("CREATE TABLE modulith_shop_stock (id VARCHAR(64) PRIMARY KEY, available INT NOT NULL)");
			broker = KafkaBrokerProcess.start(Path.of("target", "modulith-shop-broker", "broker.log"));
			broker.createTopic(ShopApplication.ORDERS_TOPIC, 3);
			broker.createTopic(ShopApplication.SHIPMENTS_TOPIC, 3);
			broker.createTopic(ShopApplication.STOCK_TOPIC, 3);
		}
		return broker;
	}

}
