package dev.outboxstarter.modulith.invoicing;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/**
 * The application's configuration: its package is the one Modulith's default configuration
 * externalizes {@code @Externalized} events of.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class InvoicingApplication {

}
