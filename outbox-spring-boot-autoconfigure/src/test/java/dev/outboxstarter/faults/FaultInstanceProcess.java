package dev.outboxstarter.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.outboxstarter.testsupport.FaultClassPath;
import dev.outboxstarter.testsupport.ProcessSignals;

import static org.awaitility.Awaitility.await;

/**
 * The orchestrator's handle on one {@link FaultInstance} process: starts it, reads its report lines
 * into the run's {@link FaultLog}, writes everything else it prints to a log file, and stops it
 * gracefully or kills it with SIGKILL.
 */
final class FaultInstanceProcess {

	private static final String NICE = "/usr/bin/nice";

	private final String name;

	private final List<String> arguments;

	private final Path logFile;

	private final FaultLog log;

	private Process process;

	private volatile boolean ready;

	private volatile boolean done;

	FaultInstanceProcess(String name, List<String> arguments, Path logFile, FaultLog log) {
		this.name = name;
		this.arguments = List.copyOf(arguments);
		this.logFile = logFile;
		this.log = log;
	}

	String name() {
		return this.name;
	}

	synchronized void start() {
		List<String> command = new ArrayList<>();
		if (Files.isExecutable(Path.of(NICE))) {
			// Lower priority than the broker and the orchestrator: on a small machine the instances would
			// otherwise starve the broker's restart.
			command.addAll(List.of(NICE, "-n", "5"));
		}
		command.addAll(List.of(FaultClassPath.javaCommand(), "-Xmx384m", "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-cp", FaultClassPath.snapshot(), FaultInstance.class.getName()));
		this.arguments.forEach((argument) -> command.add("--" + argument));
		this.ready = false;
		this.done = false;
		try {
			this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Process started = this.process;
		Thread reader = new Thread(() -> read(started), "fault-instance-" + this.name);
		reader.setDaemon(true);
		reader.start();
	}

	void awaitReady() {
		await(this.name + " ready").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() -> {
			if (!this.ready && !this.process.isAlive()) {
				throw new IllegalStateException(this.name + " exited with " + this.process.exitValue() + "; see "
						+ this.logFile);
			}
			return this.ready;
		});
	}

	boolean isDone() {
		return this.done;
	}

	boolean isAlive() {
		return this.process != null && this.process.isAlive();
	}

	long pid() {
		return this.process.pid();
	}

	Path logFile() {
		return this.logFile;
	}

	/**
	 * SIGSTOP: the instance stops without dying, its sockets open, as in a long garbage collection or a
	 * frozen VM.
	 */
	synchronized void freeze() {
		ProcessSignals.freeze(this.process.pid());
	}

	/**
	 * SIGCONT: a frozen instance runs on.
	 */
	synchronized void thaw() {
		ProcessSignals.thaw(this.process.pid());
	}

	/**
	 * SIGKILL: no shutdown hook, no graceful close, whatever was in flight is cut.
	 */
	synchronized void kill() {
		this.process.destroyForcibly();
		waitForExit(this.process, 30);
	}

	/**
	 * Asks the instance to close its application (end of its standard input), then destroys it.
	 */
	synchronized void stop() {
		Process current = this.process;
		if (current == null || !current.isAlive()) {
			return;
		}
		// A frozen instance would neither read its input nor act on SIGTERM.
		ProcessSignals.thawQuietly(current.pid());
		try {
			current.getOutputStream().close();
		}
		catch (IOException ex) {
			// Gone already.
		}
		if (!waitForExit(current, 20)) {
			current.destroy();
			if (!waitForExit(current, 10)) {
				current.destroyForcibly();
				waitForExit(current, 10);
			}
		}
	}

	private static boolean waitForExit(Process process, int seconds) {
		try {
			return process.waitFor(seconds, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
			return false;
		}
	}

	private void read(Process started) {
		try (BufferedReader in = new BufferedReader(
				new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8));
				PrintWriter out = new PrintWriter(Files.newBufferedWriter(this.logFile, StandardCharsets.UTF_8,
						StandardOpenOption.CREATE, StandardOpenOption.APPEND), true)) {
			out.println("=== " + this.name + " started, pid " + started.pid());
			String line;
			while ((line = in.readLine()) != null) {
				if (line.startsWith(FaultInstance.PREFIX)) {
					String report = line.substring(FaultInstance.PREFIX.length());
					if (report.startsWith("READY")) {
						this.ready = true;
						out.println(line);
					}
					else if (report.startsWith("DONE")) {
						this.done = true;
						out.println(line);
					}
					else if (report.startsWith("ERROR")) {
						out.println(line);
					}
					this.log.report(this.name, report);
				}
				else {
					out.println(line);
				}
			}
			out.println("=== " + this.name + " exited");
		}
		catch (IOException ex) {
			// The process is gone.
		}
	}

}
