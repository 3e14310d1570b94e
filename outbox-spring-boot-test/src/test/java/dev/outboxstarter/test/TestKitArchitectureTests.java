package dev.outboxstarter.test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The test kit reads the running outbox through the operations view alone, like the actuator: it
 * knows none of the engine's packages, and of its configuration only the auto-configuration it orders
 * itself after.
 */
class TestKitArchitectureTests {

	private static final JavaClasses testKit = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.outboxstarter.test");

	@Test
	void testKitUsesNoEnginePackage() {
		noClasses().should()
			.dependOnClassesThat()
			.resideInAPackage("dev.outboxstarter.internal..")
			.because("the test kit reads the engine through dev.outboxstarter.operations")
			.check(testKit);
	}

	@Test
	void testKitUsesNothingOfTheEnginesConfigurationButItsAutoConfiguration() {
		noClasses().should()
			.dependOnClassesThat(resideInAnyPackage("dev.outboxstarter.core..")
				.and(not(equivalentTo(OutboxAutoConfiguration.class))))
			.check(testKit);
	}

}
