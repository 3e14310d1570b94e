package dev.outboxstarter.schemaregistry.shop;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A shop that ships orders with plain JDBC and raises an Avro event in the same transaction, with the
 * starter and this module as an application adds them.
 */
@SpringBootApplication
public class ShopApplication {

}
