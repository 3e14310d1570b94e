/**
 * Extension points: a transport of one's own ({@link OutboxTransport}), decorators around every
 * transport, listeners to captures and deliveries, and contributors of headers captured with each
 * event. They take only the types of this package and of {@link dev.outboxstarter}.
 */
@NullMarked
package dev.outboxstarter.spi;

import org.jspecify.annotations.NullMarked;
