package dev.outboxstarter.sample.orders;

import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.context.annotation.Configuration;

/**
 * The order events are the application's own classes, which the outbox reaches only at run time: it
 * writes them as JSON, reads their {@code @OutboxEvent} annotation and evaluates key and destination
 * expressions against them. Spring AOT cannot find them by itself, so they are registered for
 * binding here, for a native image.
 */
@Configuration(proxyBeanMethods = false)
@RegisterReflectionForBinding({ OrderPlaced.class, OrderPaymentReminder.class, OrderPaid.class, OrderCancelled.class })
class OrderEventsBinding {

}
