package dev.outboxstarter.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * SIGSTOP and SIGCONT for processes a test started: a process that stops without dying, as a long
 * garbage collection, a frozen VM or a network partition leave it. Java sends only SIGTERM and SIGKILL.
 */
public final class ProcessSignals {

	private ProcessSignals() {
	}

	/**
	 * Stops a process (SIGSTOP): it keeps its sockets open and answers nothing.
	 * @param pid the process
	 */
	public static void freeze(long pid) {
		signal(pid, "-STOP");
	}

	/**
	 * Lets a stopped process run again (SIGCONT).
	 * @param pid the process
	 */
	public static void thaw(long pid) {
		signal(pid, "-CONT");
	}

	/**
	 * Lets a process run again if it was stopped, before it is ended: a stopped process does not act on
	 * SIGTERM or read its input. Nothing happens to a process that has exited meanwhile.
	 * @param pid the process
	 */
	public static void thawQuietly(long pid) {
		try {
			thaw(pid);
		}
		catch (RuntimeException ex) {
			// Exited already.
		}
	}

	private static void signal(long pid, String signal) {
		try {
			Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill " + signal + " " + pid + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
