package dev.outboxstarter.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The layering of the starter's packages: the core (capture, store, delivery, relay) knows no
 * transport, no operations support and no auto-configuration, so that each of those can be left out
 * without the core noticing.
 */
class ArchitectureTests {

	private static final JavaClasses starter = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.outboxstarter");

	@Test
	void coreDependsOnNoTransportNorOperationsSupportNorAutoConfiguration() {
		ArchRule rule = noClasses().that()
			.resideInAPackage("dev.outboxstarter.core..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.outboxstarter.kafka..", "dev.outboxstarter.amqp..", "dev.outboxstarter.local..",
					"dev.outboxstarter.metrics..", "dev.outboxstarter.tracing..", "dev.outboxstarter.actuate..",
					"dev.outboxstarter.inbox..", "dev.outboxstarter.autoconfigure..");
		rule.check(starter);
	}

}
