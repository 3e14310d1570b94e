package dev.outboxstarter.console.shipping;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small shipping service that uses the outbox and the console as an application does, behind Spring
 * Security (see {@link SecurityConfiguration}).
 */
@SpringBootApplication
public class ShippingTestApplication {

}
