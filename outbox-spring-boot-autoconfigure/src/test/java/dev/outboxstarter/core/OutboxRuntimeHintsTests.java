package dev.outboxstarter.core;

import java.util.UUID;

import dev.outboxstarter.IdempotentConsumer;
import dev.outboxstarter.OutboxEvent;
import dev.outboxstarter.OutboxHandler;
import dev.outboxstarter.spi.OutboxMessage;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.data.domain.AbstractAggregateRoot;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints Spring AOT records for an application with the outbox: what the outbox reads from the
 * classpath or reflectively is declared, so that it works in a native image. The application context
 * is processed ahead of time as the build plugins do, without starting it.
 */
class OutboxRuntimeHintsTests {

	private static RuntimeHints hints;

	@BeforeAll
	static void processAheadOfTime() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			TestPropertyValues.of("spring.datasource.url=jdbc:h2:mem:aot", "outbox.inbox.enabled=true")
				.applyTo(context);
			context.register(Application.class);
			DefaultGenerationContext generation = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get(Application.class)), new InMemoryGeneratedFiles());
			new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
			hints = generation.getRuntimeHints();
		}
	}

	@Test
	void sqlStatementsOfEveryDatabaseAreResources() {
		for (String vendor : new String[] { "postgresql", "mysql", "h2" }) {
			assertThat(RuntimeHintsPredicates.resource().forResource("db/outbox/statements/" + vendor + ".properties"))
				.accepts(hints);
		}
	}

	@Test
	void migrationScriptsOfTheOutboxAndInboxTablesAreResources() {
		assertThat(RuntimeHintsPredicates.resource()
			.forResource("db/outbox/migration/postgresql/V1__create_outbox_table.sql")).accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("db/outbox/migration/mysql/V4__record_when_rows_became_dead.sql"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("db/outbox/inbox-migration/h2/V1__create_inbox_table.sql"))
			.accepts(hints);
	}

	@Test
	void attributesOfTheOutboxAnnotationsCanBeRead() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OutboxEvent.class, "destination"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OutboxEvent.List.class, "value"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OutboxHandler.class, "value")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(IdempotentConsumer.class, "value"))
			.accepts(hints);
	}

	@Test
	void domainEventsOfAggregateRootsCanBeReadAndCleared() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(AbstractAggregateRoot.class, "domainEvents"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(AbstractAggregateRoot.class, "clearDomainEvents")).accepts(hints);
	}

	@Test
	void outboxHandlerMethodIsInvocableAndItsEventBindable() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Handlers.class, "parcelShipped"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(ParcelShipped.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ParcelShipped.class, "parcelId"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Handlers.class, "notAHandler"))
			.rejects(hints);
	}

	@Test
	void idempotentConsumerMethodIsInvocable() {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Handlers.class, "parcelEvent"))
			.accepts(hints);
	}

	@Test
	void outboxPropertiesCanBeBound() {
		assertThat(RuntimeHintsPredicates.reflection().onType(OutboxProperties.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(OutboxProperties.FastPath.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(OutboxInboxProperties.class)).accepts(hints);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
			OutboxAutoConfiguration.class, OutboxInboxAutoConfiguration.class })
	static class Application {

		@Bean
		Handlers handlers() {
			return new Handlers();
		}

	}

	static class Handlers {

		@OutboxHandler("parcels")
		void parcelShipped(ParcelShipped event, OutboxMessage message) {
		}

		@IdempotentConsumer
		void parcelEvent(ConsumerRecord<String, String> record) {
		}

		void notAHandler(ParcelShipped event) {
		}

	}

	record ParcelShipped(UUID parcelId) {
	}

}
