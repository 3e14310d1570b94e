package dev.outboxstarter.it.tenantschemas;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import org.springframework.data.domain.AbstractAggregateRoot;

/**
 * A booking of a tenant, in the tenant's schema (which the test creates, as a tenant's onboarding
 * would).
 */
@Entity
@Table(name = "booking")
public class Booking extends AbstractAggregateRoot<Booking> {

	@Id
	private String id;

	private int revision;

	@Version
	private Integer version;

	protected Booking() {
	}

	public Booking(String id) {
		this.id = id;
	}

	public String getId() {
		return this.id;
	}

	public int getRevision() {
		return this.revision;
	}

	/**
	 * Revises this booking.
	 * @param run the test run the change belongs to
	 * @param tenant the booking's tenant
	 * @param revision the booking's revision from now on
	 * @return this booking
	 */
	public Booking revise(String run, String tenant, int revision) {
		this.revision = revision;
		registerEvent(new BookingRevised(run, tenant, this.id, revision));
		return this;
	}

}
