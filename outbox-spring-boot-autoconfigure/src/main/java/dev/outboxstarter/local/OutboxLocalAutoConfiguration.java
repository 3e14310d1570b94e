package dev.outboxstarter.local;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.core.OutboxProperties;
import dev.outboxstarter.operations.OutboxMonitoring;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The {@code local} transport: {@code @OutboxHandler} methods of the application, each run in a
 * transaction of its own after the business transaction committed.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass(JsonMapper.class)
@ConditionalOnBean(OutboxMonitoring.class)
final class OutboxLocalAutoConfiguration {

	@Bean
	LocalHandlerMethods outboxLocalHandlerMethods() {
		return new LocalHandlerMethods();
	}

	/**
	 * The transport, with room for a full batch of each fast-path thread and of the relay: more events
	 * wait for the handlers only once a handler is slower than the publish timeout.
	 */
	@Bean
	LocalOutboxTransport localOutboxTransport(LocalHandlerMethods handlers,
			ObjectProvider<PlatformTransactionManager> transactionManager, ObjectProvider<JsonMapper> json,
			OutboxProperties properties) {
		OutboxProperties.FastPath fastPath = properties.getFastPath();
		int capacity = fastPath.getBatchSize() * fastPath.getThreads() + properties.getRelay().getBatchSize();
		return new LocalOutboxTransport(handlers, transactionManager, json.getIfAvailable(JsonMapper::new), capacity);
	}

}
