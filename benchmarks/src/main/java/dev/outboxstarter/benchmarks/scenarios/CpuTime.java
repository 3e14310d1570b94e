package dev.outboxstarter.benchmarks.scenarios;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

import com.sun.management.OperatingSystemMXBean;

import dev.outboxstarter.benchmarks.BenchmarkDatabase;
import org.jspecify.annotations.Nullable;

/**
 * CPU time spent by the contender's JVM and by the database server, read before and after a
 * measurement, which says what a transaction costs independently of how busy the shared machine
 * was. The database's share is read from {@code /proc}: the CPU time of every process of the database
 * server ({@link BenchmarkDatabase#isServerProcess}; so autovacuum or InnoDB's background threads count,
 * and so would another client's work: it is only meaningful on a database nothing else uses
 * meanwhile). Where {@code /proc} cannot be read, or no database is given, it is absent. The Kafka
 * broker's share is read alike, from the broker process the suite runs ({@code kafka.Kafka}).
 */
final class CpuTime {

	private static final Path PROC = Path.of("/proc");

	/** Linux reports process times in clock ticks of 10 ms on every common configuration. */
	private static final long NANOS_PER_TICK = 10_000_000;

	/** The main class of the broker process, an argument of its command line of its own. */
	private static final String BROKER_MAIN_CLASS = "kafka.Kafka";

	private final long jvmNanos;

	private final long databaseNanos;

	private final long brokerNanos;

	private CpuTime(long jvmNanos, long databaseNanos, long brokerNanos) {
		this.jvmNanos = jvmNanos;
		this.databaseNanos = databaseNanos;
		this.brokerNanos = brokerNanos;
	}

	/**
	 * Reads the CPU times.
	 * @param database the database whose server's time to read, or {@code null} for none
	 * @return the reading
	 */
	static CpuTime now(@Nullable BenchmarkDatabase database) {
		OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		return new CpuTime(os.getProcessCpuTime(),
				(database != null) ? processesNanos(database::isServerProcess) : -1,
				processesNanos((commandLine) -> List.of(commandLine.split("\0")).contains(BROKER_MAIN_CLASS)));
	}

	/**
	 * The contender JVM's CPU time since {@code start}, per operation.
	 * @param start the earlier reading
	 * @param operations how many operations ran in between
	 * @return microseconds per operation
	 */
	double jvmMicrosPerOperationSince(CpuTime start, int operations) {
		return (this.jvmNanos - start.jvmNanos) / 1000.0 / operations;
	}

	/**
	 * The database server's CPU time since {@code start}, per operation.
	 * @param start the earlier reading
	 * @param operations how many operations ran in between
	 * @return microseconds per operation, or {@code null} when {@code /proc} could not be read
	 */
	Double databaseMicrosPerOperationSince(CpuTime start, int operations) {
		if (this.databaseNanos < 0 || start.databaseNanos < 0) {
			return null;
		}
		return (this.databaseNanos - start.databaseNanos) / 1000.0 / operations;
	}

	/**
	 * The broker process's CPU time since {@code start}, per operation.
	 * @param start the earlier reading
	 * @param operations how many operations ran in between
	 * @return microseconds per operation, or {@code null} when {@code /proc} could not be read
	 */
	Double brokerMicrosPerOperationSince(CpuTime start, int operations) {
		if (this.brokerNanos < 0 || start.brokerNanos < 0) {
			return null;
		}
		return (this.brokerNanos - start.brokerNanos) / 1000.0 / operations;
	}

	private static long processesNanos(Predicate<String> commandLines) {
		if (!Files.isDirectory(PROC)) {
			return -1;
		}
		long ticks = 0;
		try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, "[0-9]*")) {
			for (Path process : processes) {
				ticks += ticks(commandLines, process);
			}
		}
		catch (IOException ex) {
			return -1;
		}
		return ticks * NANOS_PER_TICK;
	}

	private static long ticks(Predicate<String> commandLines, Path process) {
		try {
			String commandLine = new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8);
			if (!commandLines.test(commandLine)) {
				return 0;
			}
			String stat = Files.readString(process.resolve("stat"));
			// The fields after the command name, which is in parentheses and may contain spaces:
			// utime and stime are the 12th and 13th of them.
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		}
		catch (IOException | RuntimeException ex) {
			// The process ended while it was read.
			return 0;
		}
	}

}
