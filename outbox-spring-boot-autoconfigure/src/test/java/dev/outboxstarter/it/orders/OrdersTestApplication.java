package dev.outboxstarter.it.orders;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small orders service that uses the outbox the way an application does.
 */
@SpringBootApplication
public class OrdersTestApplication {

}
