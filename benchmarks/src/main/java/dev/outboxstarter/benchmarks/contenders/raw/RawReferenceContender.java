package dev.outboxstarter.benchmarks.contenders.raw;

import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxstarter.benchmarks.BenchmarkDatabase;
import dev.outboxstarter.benchmarks.Contender;
import dev.outboxstarter.benchmarks.ContenderSettings;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The physical reference, no framework: the business row and the event row in one JDBC transaction,
 * and one thread that claims a batch with {@code FOR UPDATE SKIP LOCKED}, sends it with a plain
 * {@code KafkaProducer}, awaits the acks and deletes the batch. No ordering check, no retry
 * bookkeeping, no metrics: the least work an outbox can do. On PostgreSQL and on MariaDB, whose
 * statements differ only in the table's types and in how the batch's keys are passed to the delete.
 */
public class RawReferenceContender implements Contender {

	private static final int BATCH = 500;

	private HikariDataSource dataSource;

	private KafkaProducer<String, byte[]> producer;

	private Thread relay;

	private volatile boolean running;

	private String topic;

	private BenchmarkDatabase database;

	@Override
	public void start(ContenderSettings settings) {
		this.topic = settings.topic();
		this.database = BenchmarkDatabase.of(settings.jdbcUrl());
		this.dataSource = new HikariDataSource();
		this.dataSource.setJdbcUrl(settings.jdbcUrl());
		this.dataSource.setUsername(settings.username());
		this.dataSource.setMaximumPoolSize(12);
		if (this.database == BenchmarkDatabase.MARIADB) {
			// InnoDB's default, repeatable read, locks the gap after the claimed rows too: while a batch
			// waits for its acks, every writer's insert at the end of the table waits for it.
			this.dataSource.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
		}
		execute(switch (this.database) {
			case POSTGRESQL -> "CREATE TABLE raw_outbox (seq BIGSERIAL PRIMARY KEY, id UUID NOT NULL, "
					+ "msg_key VARCHAR(255), payload TEXT NOT NULL)";
			case MARIADB -> "CREATE TABLE raw_outbox (seq BIGINT AUTO_INCREMENT PRIMARY KEY, id UUID NOT NULL, "
					+ "msg_key VARCHAR(255), payload TEXT NOT NULL)";
		});
		this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers(),
				ProducerConfig.MAX_BLOCK_MS_CONFIG, settings.maxBlockMillis()), new StringSerializer(),
				new ByteArraySerializer());
		this.running = true;
		this.relay = new Thread(this::relay, "raw-relay");
		this.relay.start();
	}

	@Override
	public void placeOrder(String key, String payload) {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(false);
			try (PreparedStatement order = connection.prepareStatement("INSERT INTO bench_order (order_key) VALUES (?)");
					PreparedStatement event = connection
						.prepareStatement("INSERT INTO raw_outbox (id, msg_key, payload) VALUES (?, ?, ?)")) {
				order.setString(1, key);
				order.executeUpdate();
				event.setObject(1, (this.database == BenchmarkDatabase.POSTGRESQL) ? UUID.randomUUID()
						: UUID.randomUUID().toString());
				event.setString(2, key);
				event.setString(3, payload);
				event.executeUpdate();
				connection.commit();
			}
			catch (SQLException ex) {
				connection.rollback();
				throw ex;
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void relay() {
		while (this.running) {
			try {
				if (claimSendDelete() == 0) {
					// A polling loop: with nothing to claim, wait a little rather than spin on the database.
					Thread.sleep(10);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (Exception ex) {
				// The broker is down or the batch failed: the rows stay, and the next round tries again
				// after a short pause, the reference's whole retry policy.
				try {
					Thread.sleep(100);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private int claimSendDelete() throws Exception {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(false);
			try {
				List<Long> claimed = new ArrayList<>(BATCH);
				List<Future<RecordMetadata>> acks = new ArrayList<>(BATCH);
				try (PreparedStatement claim = connection.prepareStatement(
						"SELECT seq, msg_key, payload FROM raw_outbox ORDER BY seq LIMIT " + BATCH + " FOR UPDATE SKIP LOCKED");
						ResultSet rows = claim.executeQuery()) {
					while (rows.next()) {
						claimed.add(rows.getLong(1));
						acks.add(this.producer.send(new ProducerRecord<>(this.topic, rows.getString(2),
								rows.getString(3).getBytes(StandardCharsets.UTF_8))));
					}
				}
				for (Future<RecordMetadata> ack : acks) {
					ack.get(10, TimeUnit.SECONDS);
				}
				if (!claimed.isEmpty()) {
					delete(connection, claimed);
				}
				connection.commit();
				return claimed.size();
			}
			catch (Exception ex) {
				connection.rollback();
				throw ex;
			}
		}
	}

	private void delete(Connection connection, List<Long> claimed) throws SQLException {
		if (this.database == BenchmarkDatabase.POSTGRESQL) {
			try (PreparedStatement delete = connection.prepareStatement("DELETE FROM raw_outbox WHERE seq = ANY (?)")) {
				Array seqs = connection.createArrayOf("bigint", claimed.toArray());
				delete.setArray(1, seqs);
				delete.executeUpdate();
			}
			return;
		}
		// No array parameters: one placeholder per claimed row.
		String placeholders = String.join(",", Collections.nCopies(claimed.size(), "?"));
		try (PreparedStatement delete = connection
			.prepareStatement("DELETE FROM raw_outbox WHERE seq IN (" + placeholders + ")")) {
			for (int i = 0; i < claimed.size(); i++) {
				delete.setLong(i + 1, claimed.get(i));
			}
			delete.executeUpdate();
		}
	}

	private void execute(String sql) {
		try (Connection connection = this.dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.running = false;
		if (this.relay != null) {
			try {
				this.relay.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		if (this.producer != null) {
			this.producer.close();
		}
		if (this.dataSource != null) {
			this.dataSource.close();
		}
	}

}
