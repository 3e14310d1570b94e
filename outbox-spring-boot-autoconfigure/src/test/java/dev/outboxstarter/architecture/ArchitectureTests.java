package dev.outboxstarter.architecture;

import java.util.Arrays;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering of the starter's packages. The API ({@code dev.outboxstarter}) and the extension
 * points ({@code spi}) know nothing of the engine; the engine ({@code core}) knows no transport and no
 * operations support, so each of those can be left out without the core noticing; a transport knows
 * no other transport; and no two packages depend on each other.
 */
class ArchitectureTests {

	private static final String STARTER = "dev.outboxstarter";

	private static final JavaClasses starter = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(STARTER);

	private static final String[] TRANSPORTS = { "dev.outboxstarter.kafka..", "dev.outboxstarter.amqp..",
			"dev.outboxstarter.local.." };

	private static final String[] OPERATIONS = { "dev.outboxstarter.metrics..", "dev.outboxstarter.tracing..",
			"dev.outboxstarter.actuate.." };

	@Test
	void noTwoPackagesDependOnEachOther() {
		slices().assignedFrom(new TopLevelPackages()).should().beFreeOfCycles().check(starter);
	}

	@Test
	void apiAndExtensionPointsDependOnNoEngineTransportNorOperationsSupport() {
		noClasses().that()
			.resideInAnyPackage(STARTER, "dev.outboxstarter.spi")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(concat(new String[] { "dev.outboxstarter.core.." }, concat(TRANSPORTS, OPERATIONS)))
			.check(starter);
	}

	@Test
	void coreDependsOnNoTransportNorOperationsSupport() {
		noClasses().that()
			.resideInAPackage("dev.outboxstarter.core..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(concat(TRANSPORTS, OPERATIONS))
			.check(starter);
	}

	@Test
	void transportsDependOnNoOtherTransportNorOperationsSupport() {
		for (String transport : TRANSPORTS) {
			String[] others = Arrays.stream(concat(TRANSPORTS, OPERATIONS))
				.filter((other) -> !other.equals(transport))
				.toArray(String[]::new);
			noClasses().that().resideInAPackage(transport).should().dependOnClassesThat().resideInAnyPackage(others)
				.check(starter);
		}
	}

	private static String[] concat(String[] first, String[] second) {
		String[] all = Arrays.copyOf(first, first.length + second.length);
		System.arraycopy(second, 0, all, first.length, second.length);
		return all;
	}

	/** One slice per package below {@code dev.outboxstarter}, and one for the API in it. */
	private static final class TopLevelPackages implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
			String name = javaClass.getPackageName();
			if (name.equals(STARTER)) {
				return SliceIdentifier.of("api");
			}
			if (!name.startsWith(STARTER + ".")) {
				return SliceIdentifier.ignore();
			}
			return SliceIdentifier.of(name.substring(STARTER.length() + 1).split("\\.")[0]);
		}

		@Override
		public String getDescription() {
			return "the starter's top-level packages";
		}

	}

}
