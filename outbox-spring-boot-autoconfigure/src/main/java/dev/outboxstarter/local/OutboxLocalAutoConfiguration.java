package dev.outboxstarter.local;

import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.core.OutboxOperations;
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
@ConditionalOnBean(OutboxOperations.class)
final class OutboxLocalAutoConfiguration {

	@Bean
	LocalHandlerMethods outboxLocalHandlerMethods() {
		return new LocalHandlerMethods();
	}

	@Bean
	LocalOutboxTransport localOutboxTransport(LocalHandlerMethods handlers,
			ObjectProvider<PlatformTransactionManager> transactionManager, ObjectProvider<JsonMapper> json) {
		return new LocalOutboxTransport(handlers, transactionManager, json.getIfAvailable(JsonMapper::new));
	}

}
