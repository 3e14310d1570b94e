package dev.outboxstarter.internal.delivery;

import dev.outboxstarter.internal.store.ClaimedEvent;


/** Where a message goes: a destination of a transport. */
record Destination(String transport, String name) {

	static Destination of(ClaimedEvent event) {
		return new Destination(event.transport(), event.message().destination());
	}

	boolean matches(ClaimedEvent event) {
		return this.transport.equals(event.transport()) && this.name.equals(event.message().destination());
	}

	@Override
	public String toString() {
		return "destination '" + this.name + "' of transport '" + this.transport + "'";
	}

}
