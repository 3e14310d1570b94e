package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.outboxstarter.internal.store.ClaimedBatch;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.CapturedEvent;
import dev.outboxstarter.spi.OutboxMessage;
import dev.outboxstarter.spi.OutboxTransport;
import dev.outboxstarter.testsupport.HeldTransaction;
import dev.outboxstarter.testsupport.OutboxTestTable;
import dev.outboxstarter.testsupport.TestDatabase;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

import static dev.outboxstarter.testsupport.OutboxTestTable.event;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How one poll of the relay drains: batch after batch, and the rows it passed over before it ends. On
 * a real (embedded) database.
 */
public class OutboxRelayTests {

	private static final String TABLE = "outbox_relay_it";

	private final BrokerComingBack transport = new BrokerComingBack();

	private OutboxTestTable outbox;

	private OutboxRelay relay;

	@BeforeEach
	void prepare() {
		this.outbox = OutboxTestTable.prepare(TestDatabase.H2, TABLE);
		// Polls itself only after an hour: the test drains.
		this.relay = new OutboxRelay(this.outbox.delivery(this.transport), 2, Duration.ofHours(1),
				Duration.ofSeconds(5), SimpleAsyncTaskScheduler::new);
		this.relay.start();
	}

	@AfterEach
	void stop() {
		this.relay.stop();
	}

	@Test
	void rowsResumedAfterTheDrainPassedThemArePublishedBeforeItEnds() {
		CapturedEvent early = event("log", "t", "A");
		insert(early);
		assertThat(this.relay.drain()).isZero();
		assertThat(this.outbox.row(early.id()).attempts()).isOne();
		this.transport.reachable = true;
		CapturedEvent b = event("log", "t", "B");
		CapturedEvent c = event("log", "t", "C");
		CapturedEvent d = event("log", "t", "D");
		insert(b, c, d);

		// The first acknowledgement makes the backed-off row due, behind the batch that got it.
		int published = this.relay.drain();

		assertThat(published).isEqualTo(4);
		assertThat(this.transport.sent).containsExactly(b.id(), c.id(), d.id(), early.id());
		assertThat(this.outbox.row(early.id()).status()).isEqualTo("PUBLISHED");
	}

	@Test
	void drainEndsWithAShortBatchFromTheStart() {
		this.transport.reachable = true;
		insert(event("log", "t", "A"));

		assertThat(this.relay.drain()).isOne();
		assertThat(this.relay.drain()).isZero();
	}

	@ParameterizedTest
	@EnumSource(TestDatabase.class)
	void fullBatchHeldBackByAnotherClaimDoesNotEndTheDrain(TestDatabase database) throws Exception {
		OutboxTestTable outbox = OutboxTestTable.prepare(database, "outbox_relay_held_it");
		this.transport.reachable = true;
		OutboxRelay relay = new OutboxRelay(outbox.delivery(this.transport), 2, Duration.ofHours(1),
				Duration.ofSeconds(5), SimpleAsyncTaskScheduler::new);
		CapturedEvent first = event("log", "t", "K");
		CapturedEvent second = event("log", "t", "K");
		CapturedEvent third = event("log", "t", "K");
		CapturedEvent otherKey = event("log", "t", "L");
		OutboxStore store = outbox.store();
		outbox.insert(store, Duration.ZERO, first, second, third, otherKey);
		relay.start();
		// Another instance's claim holds K's first row: the first batch is K's later rows, held back.
		try (HeldTransaction<ClaimedBatch> other = HeldTransaction.start(outbox.transactions(), store,
				(s) -> s.claimCaptured(List.of(first)))) {
			assertThat(relay.drain()).isOne();
			assertThat(this.transport.sent).containsExactly(otherKey.id());
			other.commit();
		}
		finally {
			relay.stop();
		}
	}

	@Test
	void lastRunIsWhenTheRelayLastCompletedAPoll() {
		Instant started = this.relay.lastRun();
		assertThat(started).as("a relay counts its start as a run").isNotNull();
		this.transport.reachable = true;
		Awaitility.await().pollDelay(Duration.ZERO).until(() -> Instant.now().isAfter(started));

		this.relay.drain();

		assertThat(this.relay.lastRun()).isAfter(started).isBeforeOrEqualTo(Instant.now());
	}

	private void insert(CapturedEvent... events) {
		this.outbox.insert(this.outbox.store(), Duration.ZERO, events);
	}

	/**
	 * Refuses every message as Kafka's producer does while it has no metadata, until the broker is
	 * reachable; then acknowledges at once.
	 */
	private static final class BrokerComingBack implements OutboxTransport {

		private final List<UUID> sent = new CopyOnWriteArrayList<>();

		private volatile boolean reachable;

		@Override
		public String name() {
			return "log";
		}

		@Override
		public boolean isUnavailable(Throwable failure) {
			return true;
		}

		@Override
		public CompletableFuture<?> send(OutboxMessage message) {
			if (!this.reachable) {
				throw new IllegalStateException("no metadata within max.block.ms");
			}
			this.sent.add(message.id());
			return CompletableFuture.completedFuture(message.id());
		}

	}

}
