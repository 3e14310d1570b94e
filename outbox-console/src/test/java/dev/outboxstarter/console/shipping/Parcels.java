package dev.outboxstarter.console.shipping;

import dev.outboxstarter.Outbox;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Ships parcels: each shipment is one transaction that writes its event to the outbox.
 */
@Service
public class Parcels {

	private final Outbox outbox;

	private final TransactionTemplate transactions;

	Parcels(Outbox outbox, TransactionTemplate transactions) {
		this.outbox = outbox;
		this.transactions = transactions;
	}

	/**
	 * Ships a parcel.
	 * @param parcelId the parcel
	 * @param note what its event says
	 */
	public void ship(String parcelId, String note) {
		this.transactions
			.executeWithoutResult((status) -> this.outbox.publish("Parcel", parcelId, new ParcelShipped(parcelId, note)));
	}

}
