package dev.outboxstarter.it.orders;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Transient;

import org.springframework.data.domain.DomainEvents;

/**
 * An aggregate that never clears its events (no {@code @AfterDomainEventPublication}): it still holds
 * every event it raised at each later flush.
 */
@Entity
public class Parcel {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String label;

	@Transient
	private final List<Object> events = new ArrayList<>();

	protected Parcel() {
	}

	public Parcel(String label) {
		this.label = label;
	}

	public Long getId() {
		return this.id;
	}

	public Parcel scan(String reference) {
		this.events.add(new ParcelScanned(reference));
		return this;
	}

	@DomainEvents
	List<Object> events() {
		return Collections.unmodifiableList(this.events);
	}

}
