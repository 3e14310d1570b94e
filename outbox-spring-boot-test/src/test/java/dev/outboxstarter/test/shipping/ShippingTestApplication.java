package dev.outboxstarter.test.shipping;

import dev.outboxstarter.spi.EventHeadersContributor;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** A small shipping service whose tests use the test kit as an application's would. */
@SpringBootApplication
public class ShippingTestApplication {

	@Bean
	EventHeadersContributor tenantHeader() {
		return (headers) -> headers.put("tenant", "acme");
	}

}
