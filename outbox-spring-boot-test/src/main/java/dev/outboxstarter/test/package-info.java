/**
 * The test kit: {@code @AutoConfigureOutbox} for test slices, the events a test captured and
 * published, a recording transport in place of a broker, and a relay a test drains.
 */
@NullMarked
package dev.outboxstarter.test;

import org.jspecify.annotations.NullMarked;
