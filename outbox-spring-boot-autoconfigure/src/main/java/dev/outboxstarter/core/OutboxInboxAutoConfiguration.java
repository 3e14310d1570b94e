package dev.outboxstarter.core;

import javax.sql.DataSource;

import dev.outboxstarter.IdempotentConsumer;
import dev.outboxstarter.Inbox;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.core.OutboxInboxProperties.MissingMessageId;
import dev.outboxstarter.internal.housekeeping.InboxCleanup;
import dev.outboxstarter.internal.inbox.IdempotentConsumerInterceptor;
import dev.outboxstarter.internal.inbox.IdempotentConsumerMethods;
import dev.outboxstarter.internal.inbox.InboxStatements;
import dev.outboxstarter.internal.inbox.InboxStore;
import dev.outboxstarter.internal.inbox.TransactionalInbox;
import dev.outboxstarter.internal.schema.OutboxSchemaInitializer;
import dev.outboxstarter.internal.store.OutboxStore;
import dev.outboxstarter.spi.InboxOutcomeListener;

import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.messaging.Message;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Auto-configuration of the consumer-side inbox ({@code outbox.inbox.enabled=true}): its table, the
 * {@link Inbox} and the {@link IdempotentConsumer} advice for listener methods.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class,
		afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
				"org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration" })
@ConditionalOnClass(Message.class)
@ConditionalOnBean(OutboxStore.class)
@EnableConfigurationProperties(OutboxInboxProperties.class)
final class OutboxInboxAutoConfiguration {

	@Bean
	static IdempotentConsumerMethods outboxIdempotentConsumerMethods(Environment environment) {
		return new IdempotentConsumerMethods(environment.getProperty("outbox.inbox.enabled", Boolean.class, false));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("outbox.inbox.enabled")
	static class InboxConfiguration {

		@Bean
		InboxStore outboxInboxStore(DataSource dataSource, OutboxStore outboxStore,
				OutboxInboxProperties inboxProperties) {
			return new InboxStore(dataSource,
					InboxStatements.load(outboxStore.vendor(), inboxProperties.getTableName()));
		}

		@Bean
		OutboxSchemaInitializer outboxInboxSchemaInitializer(DataSource dataSource, OutboxStore store,
				OutboxProperties properties, OutboxInboxProperties inboxProperties, ResourceLoader resourceLoader) {
			return SchemaInitializers.forTable(properties.getSchema().getMode(), dataSource, store.vendor(),
					store.vendor().inboxMigrationLocation(), "inbox", inboxProperties.getTableName(), resourceLoader);
		}

		@Bean
		@ConditionalOnMissingBean
		Inbox outboxInbox(InboxStore store, ObjectProvider<PlatformTransactionManager> transactionManager,
				DataSource dataSource, OutboxInboxProperties inboxProperties,
				ObjectProvider<InboxOutcomeListener> listeners) {
			PlatformTransactionManager manager = transactionManager.getIfUnique();
			if (manager == null) {
				throw new OutboxConfigurationException("The inbox runs each handler in a transaction with its "
						+ "insert and needs one transaction manager over the DataSource; there is none, or several",
						"Add a JPA or JDBC transaction manager for the DataSource, or mark one of several @Primary");
			}
			return new TransactionalInbox(store, manager, dataSource,
					inboxProperties.getMissingMessageId() == MissingMessageId.PROCESS,
					listeners.orderedStream().toList());
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static Advisor outboxIdempotentConsumerAdvisor(ObjectProvider<Inbox> inbox) {
			return new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, IdempotentConsumer.class, true),
					new IdempotentConsumerInterceptor(inbox));
		}

		@Bean
		InboxCleanup outboxInboxCleanup(InboxStore store, DataSource dataSource, OutboxInboxProperties inboxProperties,
				ObjectProvider<SimpleAsyncTaskSchedulerBuilder> schedulers) {
			return new InboxCleanup(store, OutboxTransactions.readCommitted(dataSource), inboxProperties.getRetention(),
					inboxProperties.getCleanupBatchSize(), inboxProperties.getCleanupInterval(),
					OutboxThreads.named(schedulers, "outbox-inbox-cleanup"));
		}

	}

}
