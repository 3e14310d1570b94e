package dev.outboxstarter.architecture;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering of the starter's packages. The API ({@code dev.outboxstarter}) and the extension
 * points ({@code spi}) know nothing of the engine; the engine ({@code core}, where it is configured,
 * and the packages of {@code internal}) knows no transport and no operations support, so each of those
 * can be left out without the engine noticing; a transport knows no other transport; everything
 * outside the engine reads it through the operations view ({@code operations}); and no two packages
 * depend on each other. Inside the engine, each concern uses only the ones listed in
 * {@link #ENGINE_DEPENDENCIES}, so that an event's way through it runs one way.
 */
class ArchitectureTests {

	private static final String STARTER = "dev.outboxstarter";

	private static final String INTERNAL = STARTER + ".internal";

	private static final JavaClasses starter = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(STARTER);

	private static final String[] ENGINE = { "dev.outboxstarter.core..", INTERNAL + ".." };

	private static final String[] TRANSPORTS = { "dev.outboxstarter.kafka..", "dev.outboxstarter.amqp..",
			"dev.outboxstarter.local.." };

	private static final String[] OPERATIONS = { "dev.outboxstarter.metrics..", "dev.outboxstarter.tracing..",
			"dev.outboxstarter.actuate.." };

	/**
	 * Which engine packages each engine package may use: capture routes and writes; delivery claims
	 * and marks; the store and the schema know only the database; the inbox keeps its own table;
	 * housekeeping deletes from both tables; the operations view reads all of them.
	 */
	private static final Map<String, List<String>> ENGINE_DEPENDENCIES = engineDependencies();

	private static Map<String, List<String>> engineDependencies() {
		Map<String, List<String>> uses = new LinkedHashMap<>();
		uses.put("capture", List.of("routing", "store"));
		uses.put("capture.jpa", List.of("capture"));
		uses.put("routing", List.of());
		uses.put("delivery", List.of("store"));
		uses.put("store", List.of("jdbc"));
		uses.put("schema", List.of("jdbc"));
		uses.put("jdbc", List.of());
		uses.put("inbox", List.of("store", "schema", "jdbc"));
		uses.put("housekeeping", List.of("store", "inbox"));
		uses.put("operations", List.of("capture", "routing", "delivery", "store", "housekeeping"));
		return uses;
	}

	@Test
	void noTwoPackagesDependOnEachOther() {
		slices().assignedFrom(new TopLevelPackages()).should().beFreeOfCycles().check(starter);
	}

	@Test
	void noTwoEnginePackagesDependOnEachOther() {
		slices().matching(INTERNAL + ".(**)").should().beFreeOfCycles().check(starter);
	}

	@Test
	void apiAndExtensionPointsDependOnNoEngineTransportNorOperationsSupport() {
		noClasses().that()
			.resideInAnyPackage(STARTER, "dev.outboxstarter.spi")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(concat(concat(ENGINE, new String[] { "dev.outboxstarter.operations.." }),
					concat(TRANSPORTS, OPERATIONS)))
			.check(starter);
	}

	@Test
	void operationsViewDependsOnNoEngine() {
		noClasses().that()
			.resideInAPackage("dev.outboxstarter.operations..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(ENGINE)
			.check(starter);
	}

	@Test
	void engineDependsOnNoTransportNorOperationsSupport() {
		noClasses().that()
			.resideInAnyPackage(ENGINE)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(concat(TRANSPORTS, OPERATIONS))
			.check(starter);
	}

	@Test
	void onlyTheEngineUsesItsInternalPackages() {
		noClasses().that()
			.resideOutsideOfPackages(ENGINE)
			.should()
			.dependOnClassesThat()
			.resideInAPackage(INTERNAL + "..")
			.check(starter);
	}

	@Test
	void internalPackagesDoNotKnowHowTheyAreConfigured() {
		noClasses().that()
			.resideInAPackage(INTERNAL + "..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.outboxstarter.core..")
			.check(starter);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("enginePackages")
	void enginePackageUsesOnlyTheEnginePackagesItIsAllowedTo(String engine) {
		List<String> allowed = ENGINE_DEPENDENCIES.get(engine);
		String[] others = ENGINE_DEPENDENCIES.keySet()
			.stream()
			.filter((other) -> !other.equals(engine) && !allowed.contains(other))
			.map((other) -> INTERNAL + "." + other)
			.toArray(String[]::new);
		noClasses().that()
			.resideInAPackage(INTERNAL + "." + engine)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(others)
			.because("internal." + engine + " may use only " + allowed)
			.check(starter);
	}

	static Stream<String> enginePackages() {
		return ENGINE_DEPENDENCIES.keySet().stream();
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
