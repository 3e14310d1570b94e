package dev.outboxstarter.sample.orders;

/**
 * Where an order stands.
 */
public enum OrderStatus {

	PLACED, PAID, CANCELLED

}
