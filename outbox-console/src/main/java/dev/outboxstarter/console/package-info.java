/**
 * The operator console: a page on the application's management server, served with the data it shows
 * and the actions it takes by the {@code outboxconsole} actuator endpoint.
 */
@NullMarked
package dev.outboxstarter.console;

import org.jspecify.annotations.NullMarked;
