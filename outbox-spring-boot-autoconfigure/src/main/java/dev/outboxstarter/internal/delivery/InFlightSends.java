package dev.outboxstarter.internal.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

import org.jspecify.annotations.Nullable;

/**
 * The sends of this instance whose outcome no batch has recorded yet: those a batch stopped waiting
 * for when the publish timeout passed, or when its thread was interrupted. One delivery serves the
 * fast path and the relay, so both see them. A claimed event found here is not sent again: while its
 * send is in flight it waits, once acknowledged it is marked published, once failed its failure is
 * recorded as the attempt's.
 * <p>
 * A send stays here until its future completes; the transport contract says it does (Kafka within
 * the producer's {@code delivery.timeout.ms}, RabbitMQ on the confirm or when the channel closes, a
 * local handler when it returns). An outcome no batch of this instance records (another instance
 * claimed the row) is forgotten after {@code resolvedRetention}; the row is then sent again if this
 * instance claims it, as after a restart.
 */
final class InFlightSends {

	private final Map<UUID, Send> sends = new ConcurrentHashMap<>();

	private final long resolvedRetentionNanos;

	private volatile long nextPruneAt;

	/**
	 * Creates the registry.
	 * @param resolvedRetention how long an outcome that arrived after its batch stopped waiting is kept
	 * for a batch of this instance to record
	 */
	InFlightSends(Duration resolvedRetention) {
		this.resolvedRetentionNanos = resolvedRetention.toNanos();
		this.nextPruneAt = System.nanoTime() + this.resolvedRetentionNanos;
	}

	/**
	 * Keeps a send whose batch stopped waiting for it.
	 * @param id the message id
	 * @param acknowledgement completes with the acknowledgement time, or exceptionally with the failure
	 */
	void add(UUID id, CompletableFuture<Instant> acknowledgement) {
		Send send = new Send(acknowledgement);
		this.sends.put(id, send);
		acknowledgement.whenComplete((acknowledgedAt, failure) -> send.resolvedAt = System.nanoTime());
	}

	/**
	 * The earlier send of a message, if this instance has one whose outcome is not recorded.
	 * @param id the message id
	 * @return the send, or {@code null}
	 */
	@Nullable Send get(UUID id) {
		return this.sends.isEmpty() ? null : this.sends.get(id);
	}

	/**
	 * Forgets sends whose outcome a batch has recorded.
	 * @param ids their message ids
	 */
	void recorded(Collection<UUID> ids) {
		if (!this.sends.isEmpty()) {
			ids.forEach(this.sends::remove);
		}
	}

	/**
	 * Forgets outcomes kept longer than the retention, at most once per retention.
	 */
	void pruneResolved() {
		long now = System.nanoTime();
		if (this.sends.isEmpty() || now - this.nextPruneAt < 0) {
			return;
		}
		this.nextPruneAt = now + this.resolvedRetentionNanos;
		this.sends.values().removeIf((send) -> send.isResolvedBefore(now - this.resolvedRetentionNanos));
	}

	/**
	 * A send whose batch stopped waiting for it.
	 */
	static final class Send {

		private final CompletableFuture<Instant> acknowledgement;

		private volatile long resolvedAt;

		Send(CompletableFuture<Instant> acknowledgement) {
			this.acknowledgement = acknowledgement;
		}

		boolean isInFlight() {
			return !this.acknowledgement.isDone();
		}

		/**
		 * When the broker or handler acknowledged it.
		 * @return the time, or {@code null} while in flight or when it failed
		 */
		@Nullable Instant acknowledgedAt() {
			return (this.acknowledgement.isDone() && !this.acknowledgement.isCompletedExceptionally())
					? this.acknowledgement.join() : null;
		}

		/**
		 * Why it failed.
		 * @return the failure, or {@code null} while in flight or when it was acknowledged
		 */
		@Nullable Throwable failure() {
			if (!this.acknowledgement.isCompletedExceptionally()) {
				return null;
			}
			try {
				this.acknowledgement.get();
				return null;
			}
			catch (ExecutionException | CompletionException ex) {
				return (ex.getCause() != null) ? ex.getCause() : ex;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return ex;
			}
			catch (RuntimeException ex) {
				return ex;
			}
		}

		private boolean isResolvedBefore(long time) {
			return this.acknowledgement.isDone() && this.resolvedAt != 0 && this.resolvedAt - time < 0;
		}

	}

}
