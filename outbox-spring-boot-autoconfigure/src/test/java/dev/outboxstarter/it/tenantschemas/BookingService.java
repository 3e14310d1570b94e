package dev.outboxstarter.it.tenantschemas;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Revises the bookings of the current tenant, in transactions of the JPA transaction manager.
 */
@Service
public class BookingService {

	private final BookingRepository bookings;

	public BookingService(BookingRepository bookings) {
		this.bookings = bookings;
	}

	/**
	 * Revises a booking of the current tenant, creating it at its first revision.
	 * @param run the test run
	 * @param booking the booking's id
	 * @param revision its new revision
	 */
	@Transactional
	public void revise(String run, String booking, int revision) {
		this.bookings.save(find(booking).revise(run, tenant(), revision));
	}

	/** Revises a booking and flushes the change, then fails: the transaction rolls back. */
	@Transactional
	public void reviseThenFail(String run, String booking, int revision) {
		this.bookings.saveAndFlush(find(booking).revise(run, tenant(), revision));
		throw new BookingRejected();
	}

	/**
	 * The revision of a booking of the current tenant.
	 * @param booking the booking's id
	 * @return its revision, or {@code null} if there is no such booking
	 */
	@Transactional(readOnly = true)
	public Integer revisionOf(String booking) {
		return this.bookings.findById(booking).map(Booking::getRevision).orElse(null);
	}

	private Booking find(String booking) {
		return this.bookings.findById(booking).orElseGet(() -> new Booking(booking));
	}

	private static String tenant() {
		String tenant = CurrentTenant.id();
		if (tenant == null) {
			throw new IllegalStateException("No tenant is current");
		}
		return tenant;
	}

}
