package dev.outboxstarter.console.shipping;

import dev.outboxstarter.OutboxEvent;

/**
 * A parcel left the warehouse; keyed by the parcel.
 *
 * @param parcelId the parcel
 * @param note free text, as long as a test needs it to be
 */
@OutboxEvent(destination = "${console.topic}", key = "parcelId")
public record ParcelShipped(String parcelId, String note) {
}
