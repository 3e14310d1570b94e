package dev.outboxstarter.modulith;

import dev.outboxstarter.modulith.shop.ShopApplication;
import dev.outboxstarter.testsupport.TestDatabase;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The shop application in outbox mode, against PostgreSQL and a real Kafka broker: one application
 * context, shared by every test class that extends this one. Its {@code application.properties}
 * switch Modulith to this starter as docs/migrating-from-spring-modulith.md says.
 */
@SpringBootTest(classes = ShopApplication.class)
abstract class ShopIntegrationTests {

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) {
		// Now, before the application starts: the services are set up with a clean database.
		String bootstrapServers = ShopServices.broker().bootstrapServers();
		registry.add("spring.kafka.bootstrap-servers", () -> bootstrapServers);
		registry.add("outbox.table-name", () -> ShopServices.OUTBOX_TABLE);
		TestDatabase.POSTGRESQL.register(registry);
	}

}
