package dev.outboxstarter.test.shipping;

import java.util.UUID;

import dev.outboxstarter.test.AutoConfigureOutbox;
import dev.outboxstarter.test.CapturedOutboxEvents;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.transaction.TestTransaction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @DataJpaTest} on the embedded database it puts in place of the application's (H2 here): the
 * outbox creates its table there and captures into it.
 */
@DataJpaTest
@AutoConfigureOutbox
class AutoConfigureOutboxOnH2DataJpaTests {

	@Autowired
	private ShipmentRepository shipments;

	@Autowired
	private CapturedOutboxEvents captured;

	@Autowired
	private JdbcClient jdbc;

	@Test
	void eventOfASavedAggregateIsCapturedAndWrittenAtCommit() {
		UUID id = this.shipments.save(Shipment.dispatch("1 Main Street")).getId();
		assertThat(this.captured.payloads(ShipmentDispatched.class))
			.containsExactly(new ShipmentDispatched(id, "1 Main Street"));

		TestTransaction.flagForCommit();
		TestTransaction.end();

		assertThat(this.jdbc.sql("SELECT event_type FROM outbox_event WHERE aggregate_id = ?")
			.param(id.toString())
			.query(String.class)
			.list()).containsExactly("ShipmentDispatched");
	}

}
