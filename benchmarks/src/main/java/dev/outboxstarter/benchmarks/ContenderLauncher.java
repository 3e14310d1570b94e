package dev.outboxstarter.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.outboxstarter.schemaregistry.server.SchemaRegistryProcess;
import dev.outboxstarter.testsupport.FaultClassPath;
import dev.outboxstarter.testsupport.KafkaBrokerProcess;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one contender through one scenario in a {@link ContenderProcess} JVM of its own, carries out
 * the broker requests it prints ({@link BrokerControl}), keeps its output as a log in
 * {@code target/benchmarks/} and returns the result it printed.
 */
final class ContenderLauncher {

	private static final JsonMapper json = JsonMapper.builder().build();

	/** What {@code -XX:+ExitOnOutOfMemoryError} prints as a contender JVM ends. */
	private static final String OUT_OF_MEMORY = "Terminating due to java.lang.OutOfMemoryError";

	private final SuiteOptions options;

	private final KafkaBrokerProcess broker;

	ContenderLauncher(SuiteOptions options, KafkaBrokerProcess broker) {
		this.options = options;
		this.broker = broker;
	}

	/**
	 * Runs a contender through a scenario and waits for its result.
	 * @param contender the contender, from the suite's class path or the baseline build's
	 * @param scenario the scenario, as {@link ContenderProcess} names it
	 * @param parameters the scenario's {@code key=value} parameters
	 * @param heap the JVM's maximum heap
	 * @return the result the contender printed, or {@code outOfMemoryErrors} 1 if it ran out of memory
	 */
	Map<String, Object> run(Entrant contender, String scenario, List<String> parameters, String heap) {
		return run(contender, scenario, parameters, heap, null);
	}

	/**
	 * Runs a contender through a scenario in a JVM with an initial heap, and waits for its result.
	 * @param contender the contender, from the suite's class path or the baseline build's
	 * @param scenario the scenario, as {@link ContenderProcess} names it
	 * @param parameters the scenario's {@code key=value} parameters
	 * @param heap the JVM's maximum heap
	 * @param minHeap the JVM's initial heap, or {@code null} for the JVM's default
	 * @return the result the contender printed, or {@code outOfMemoryErrors} 1 if it ran out of memory
	 */
	Map<String, Object> run(Entrant contender, String scenario, List<String> parameters, String heap,
			@Nullable String minHeap) {
		List<String> command = command(contender, scenario, parameters, heap, minHeap);
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String result = null;
			Path log = Path.of("target", "benchmarks", contender.fileName() + "-" + scenario + ".log");
			StringBuilder lines = new StringBuilder();
			try (BufferedReader out = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = out.readLine()) != null) {
					lines.append(line).append('\n');
					if (line.startsWith(BrokerControl.REQUEST)) {
						BrokerControl.carryOut(line, this.broker, process.getOutputStream());
					}
					if (line.startsWith(ContenderProcess.RESULT)) {
						result = line.substring(ContenderProcess.RESULT.length());
					}
				}
				Files.writeString(log, lines);
			}
			int exit = process.waitFor();
			// A contender that ended during its outage must not leave the next one without a broker.
			this.broker.startAgain();
			if (result == null && lines.indexOf(OUT_OF_MEMORY) >= 0) {
				// A finding, not a broken harness: the large backlog scenario reports it.
				System.out.println("  out of memory; see " + log.toAbsolutePath());
				return Map.of("outOfMemoryErrors", 1);
			}
			if (result == null) {
				throw new IllegalStateException(contender + " " + scenario + " ended with exit code " + exit
						+ " and no result; see " + log.toAbsolutePath());
			}
			Map<String, Object> values = json.readValue(result, new TypeReference<Map<String, Object>>() {
			});
			System.out.println("  " + values);
			return values;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The contender JVM's command line. A {@code NAME@baseline} contender runs the baseline build's
	 * {@link ContenderProcess}: its main class and its arguments are those every earlier build takes.
	 */
	private List<String> command(Entrant contender, String scenario, List<String> parameters, String heap,
			@Nullable String minHeap) {
		List<String> command = new ArrayList<>();
		command.add(FaultClassPath.javaCommand());
		command.add("-Xmx" + heap);
		if (minHeap != null) {
			command.add("-Xms" + minHeap);
		}
		// An OutOfMemoryError ends the run at once and visibly, instead of leaving a JVM whose threads died.
		command.add("-XX:+ExitOnOutOfMemoryError");
		Path profiles = this.options.profileDirectory();
		if (profiles != null) {
			// --profile=<dir>: a profile of every contender run, for finding where time goes.
			Path file = profiles.resolve(contender.fileName() + "-" + scenario + "-" + System.nanoTime());
			if (this.options.asyncProfiler() != null) {
				// CPU samples of every thread, the kernel's part included where perf events allow: the
				// flight recorder samples only threads running Java code, and misses the socket calls.
				command.add("-agentpath:" + this.options.asyncProfiler()
						+ "=start,event=cpu,interval=1ms,threads,file=" + file + ".collapsed");
			}
			else {
				command.add("-XX:StartFlightRecording=settings=profile,filename=" + file + ".jfr");
			}
		}
		command.add("-cp");
		command.add(contender.baseline() ? this.options.baselineClassPath() : System.getProperty("java.class.path"));
		command.add(ContenderProcess.class.getName());
		// The plain name: the baseline build's ContenderProcess knows its own Contenders only.
		command.add(contender.contender().name());
		command.add(scenario);
		command.add(this.broker.bootstrapServers());
		command.addAll(parameters);
		command.add("jdbcUrl=" + this.options.jdbcUrl());
		if (contender.contender().needsSchemaRegistry()) {
			// Started on first use, once for the whole run; each run's topic is a subject of its own.
			command.add("schemaRegistryUrl=" + SchemaRegistryProcess.shared().registryApiUrl());
		}
		return command;
	}

}
