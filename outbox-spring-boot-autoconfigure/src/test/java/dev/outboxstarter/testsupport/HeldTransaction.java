package dev.outboxstarter.testsupport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.outboxstarter.internal.store.OutboxStore;

import org.springframework.transaction.support.TransactionTemplate;

/**
 * A transaction on a thread of its own that does some work (a claim, say) and then stays open,
 * holding its row locks, until the test lets it commit. Another transaction can run meanwhile on the
 * test's thread.
 *
 * @param <T> what the work returns
 */
public final class HeldTransaction<T> implements AutoCloseable {

	private static final long TIMEOUT_SECONDS = 20;

	private final CountDownLatch release = new CountDownLatch(1);

	private final CompletableFuture<T> result = new CompletableFuture<>();

	private final ExecutorService executor = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "held-transaction");
		thread.setDaemon(true);
		return thread;
	});

	private final Future<?> done;

	private volatile Consumer<OutboxStore> beforeCommit = (store) -> {
	};

	private HeldTransaction(TransactionTemplate transactions, OutboxStore store, Function<OutboxStore, T> work) {
		this.done = this.executor.submit(() -> {
			try {
				transactions.executeWithoutResult((status) -> {
					this.result.complete(work.apply(store));
					try {
						if (!this.release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
							throw new IllegalStateException("The held transaction was never released");
						}
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						throw new IllegalStateException(ex);
					}
					this.beforeCommit.accept(store);
				});
			}
			catch (RuntimeException | Error ex) {
				this.result.completeExceptionally(ex);
				throw ex;
			}
		});
	}

	/**
	 * Starts a transaction that does the work and then waits for {@link #commit}.
	 * @param <T> what the work returns
	 * @param transactions the transactions
	 * @param store the store
	 * @param work what to do in the transaction
	 * @return the held transaction, once its work is done
	 */
	public static <T> HeldTransaction<T> start(TransactionTemplate transactions, OutboxStore store,
			Function<OutboxStore, T> work) {
		HeldTransaction<T> held = new HeldTransaction<>(transactions, store, work);
		held.result();
		return held;
	}

	/**
	 * What the work returned; the transaction is still open.
	 * @return the result
	 */
	public T result() {
		try {
			return this.result.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("The held transaction failed", ex);
		}
	}

	/**
	 * Does more work in the transaction, then commits it and waits until it has.
	 * @param beforeCommit the last work in the transaction
	 */
	public void commit(Consumer<OutboxStore> beforeCommit) {
		this.beforeCommit = beforeCommit;
		this.release.countDown();
		try {
			this.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("The held transaction failed to commit", ex);
		}
	}

	/**
	 * Commits the transaction without further work.
	 */
	public void commit() {
		commit((store) -> {
		});
	}

	@Override
	public void close() throws InterruptedException {
		this.release.countDown();
		this.executor.shutdown();
		this.executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS);
	}

}
