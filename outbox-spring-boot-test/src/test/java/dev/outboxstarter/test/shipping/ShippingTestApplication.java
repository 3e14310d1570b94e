package dev.outboxstarter.test.shipping;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A small shipping service whose tests use the test kit as an application's would. */
@SpringBootApplication
public class ShippingTestApplication {

}
