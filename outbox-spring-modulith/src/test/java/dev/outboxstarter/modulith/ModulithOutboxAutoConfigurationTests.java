package dev.outboxstarter.modulith;

import java.util.Map;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.modulith.invoicing.InvoiceDrafted;
import dev.outboxstarter.modulith.invoicing.InvoiceIssued;
import dev.outboxstarter.testsupport.StarterAutoConfigurations;
import dev.outboxstarter.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.asm.ClassWriter;
import org.springframework.asm.Opcodes;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.ExternalizationMode;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * When outbox-spring-modulith takes Modulith's externalized events, and how it refuses to start in
 * outbox mode when they would be lost or written twice.
 */
class ModulithOutboxAutoConfigurationTests {

	private static final String TABLE = "outbox_modulith_defaults";

	private static final String OUTBOX_MODE = "spring.modulith.events.externalization.mode=outbox";

	private final ApplicationContextRunner runner = InvoicingContexts.withUnpublishedRowsIn(TABLE);

	@Test
	void takesNoEventWhenModulithIsNotInOutboxMode() {
		this.runner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(ExternalizedEventCapture.class));
		this.runner.withPropertyValues("spring.modulith.events.externalization.mode=module-listener")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ExternalizedEventCapture.class));
	}

	@Test
	void takesNoEventOnAModulithThatHasNoOutboxMode() {
		this.runner.withPropertyValues(OUTBOX_MODE)
			.withClassLoader(new FilteredClassLoader(ExternalizationMode.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ExternalizedEventCapture.class));
	}

	@Test
	void takesNoEventWhenModulithsExternalizationIsOff() {
		this.runner.withPropertyValues(OUTBOX_MODE, "spring.modulith.events.externalization.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ExternalizedEventCapture.class));
	}

	@Test
	void withTheDocumentedSwitchTheEventsModulithsDefaultConfigurationSelectsAreWrittenToTheOutboxKeyedAsAnnotated() {
		TestDatabase.POSTGRESQL.dropTable(TABLE);
		this.runner.withPropertyValues(DocumentedSwitch.properties()).run((context) -> {
			assertThat(context).hasSingleBean(ExternalizedEventCapture.class);
			context.getBean(TransactionTemplate.class).executeWithoutResult((status) -> {
				context.publishEvent(new InvoiceIssued("invoice-7", 120));
				context.publishEvent(new InvoiceDrafted("invoice-8"));
			});
			JdbcTemplate jdbc = new JdbcTemplate(TestDatabase.POSTGRESQL.dataSource());
			assertThat(jdbc.queryForList("SELECT event_type, transport, destination, message_key, payload FROM " + TABLE))
				.containsExactly(Map.of("event_type", "InvoiceIssued", "transport", "kafka", "destination", "invoices",
						"message_key", "invoice-7", "payload", "{\"invoiceId\":\"invoice-7\",\"amount\":120}"));
		});
	}

	@Test
	void anExternalizedEventPublishedWithNoTransactionIsRefused() {
		this.runner.withPropertyValues(OUTBOX_MODE)
			.run((context) -> assertThatExceptionOfType(OutboxCaptureException.class)
				.isThrownBy(() -> context.publishEvent(new InvoiceIssued("invoice-9", 80)))
				.withMessageContaining("no transaction active"));
	}

	@Test
	void refusesToStartInOutboxModeWithoutTheOutbox() {
		this.runner.withPropertyValues(OUTBOX_MODE, "outbox.enabled=false")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageContaining("is 'outbox', which switches Modulith's own externalization off")
				.hasMessageContaining("no Outbox bean"));
	}

	@Test
	void refusesToStartInOutboxModeWithoutModulithsEventExternalization() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JacksonAutoConfiguration.class,
					KafkaAutoConfiguration.class, OutboxAutoConfiguration.class, StarterAutoConfigurations.KAFKA,
					ModulithOutboxAutoConfiguration.class))
			.withPropertyValues(TestDatabase.POSTGRESQL.properties())
			.withPropertyValues("outbox.table-name=" + TABLE, OUTBOX_MODE)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageContaining("there is no EventExternalizationConfiguration bean"));
	}

	@Test
	void refusesToStartInOutboxModeNextToModulithsNamastackIntegration() {
		this.runner.withPropertyValues(OUTBOX_MODE)
			.withClassLoader(new ClassLoaderWith(
					"org.springframework.modulith.events.namastack.NamastackOutboxEventRecorderAutoConfiguration"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(OutboxConfigurationException.class)
				.hasMessageContaining("both outbox-spring-modulith and spring-modulith-events-namastack"));
	}

	/**
	 * The test class path and one more, empty class.
	 */
	private static final class ClassLoaderWith extends ClassLoader {

		private final String className;

		ClassLoaderWith(String className) {
			super(ModulithOutboxAutoConfigurationTests.class.getClassLoader());
			this.className = className;
		}

		@Override
		protected Class<?> findClass(String name) throws ClassNotFoundException {
			if (!name.equals(this.className)) {
				throw new ClassNotFoundException(name);
			}
			ClassWriter writer = new ClassWriter(0);
			writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name.replace('.', '/'), null, "java/lang/Object", null);
			writer.visitEnd();
			byte[] bytes = writer.toByteArray();
			return defineClass(name, bytes, 0, bytes.length);
		}

	}

}
