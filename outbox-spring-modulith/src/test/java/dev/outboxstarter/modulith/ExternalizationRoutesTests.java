package dev.outboxstarter.modulith;

import dev.outboxstarter.OutboxCaptureException;
import dev.outboxstarter.OutboxRoute;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.modulith.events.RoutingTarget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How a Modulith routing target becomes the route of an outbox row.
 */
class ExternalizationRoutesTests {

	private final DefaultListableBeanFactory beans = new DefaultListableBeanFactory();

	private final ExternalizationRoutes kafka = new ExternalizationRoutes("kafka", this.beans);

	@Test
	void targetAndKeyExpressionsAreEvaluatedAgainstThePayloadWithBeanReferences() {
		this.beans.registerSingleton("region", new Region("eu"));
		OutboxRoute route = this.kafka.routeOf(new Placed("o-1", "c-7"),
				RoutingTarget.forTarget("orders-#{@region.name()}").andKey("#{#this.customerId()}"),
				new Placed("o-1", "c-7"));

		assertThat(route).isEqualTo(new OutboxRoute("Placed", "kafka", "orders-eu", "c-7"));
	}

	@Test
	void theKeyIsEvaluatedAgainstTheMappedPayloadAndTheTypeNamedAfterThePublishedEvent() {
		OutboxRoute route = this.kafka.routeOf(new Placed("o-1", "c-7"),
				RoutingTarget.forTarget("orders").andKey("#{orderId()}"), new Notice("o-1"));

		assertThat(route).isEqualTo(new OutboxRoute("Placed", "kafka", "orders", "o-1"));
	}

	@Test
	void literalTargetsAndKeysAreTakenAsTheyAreAndNoKeyStaysNone() {
		assertThat(this.kafka.routeOf(new Notice("o-1"), RoutingTarget.forTarget("notices").andKey("fixed"),
				new Notice("o-1")))
			.isEqualTo(new OutboxRoute("Notice", "kafka", "notices", "fixed"));
		assertThat(this.kafka.routeOf(new Notice("o-1"), RoutingTarget.forTarget("notices").withoutKey(),
				new Notice("o-1")))
			.isEqualTo(new OutboxRoute("Notice", "kafka", "notices", null));
	}

	@Test
	void forRabbitTheTargetIsTheExchangeAndTheKeyTheRoutingKeyAndTheOrderingKey() {
		ExternalizationRoutes rabbit = new ExternalizationRoutes("rabbit", this.beans);

		assertThat(rabbit.routeOf(new Notice("o-1"), RoutingTarget.forTarget("shop").andKey("#{orderId()}"),
				new Notice("o-1")))
			.isEqualTo(new OutboxRoute("Notice", "rabbit", "shop/o-1", "o-1"));
		assertThat(rabbit.routeOf(new Notice("o-1"), RoutingTarget.forTarget("shop").withoutKey(), new Notice("o-1")))
			.isEqualTo(new OutboxRoute("Notice", "rabbit", "shop/", null));
	}

	@Test
	void aKeyExpressionThatFailsIsRefusedNamingTheEventAndTheExpression() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.kafka.routeOf(new Notice("o-1"),
					RoutingTarget.forTarget("notices").andKey("#{customerId()}"), new Notice("o-1")))
			.withMessageContaining("Event " + Notice.class.getName() + " is externalized with '#{customerId()}'")
			.withMessageContaining("cannot be evaluated against its payload " + Notice.class.getName());
	}

	@Test
	void aKeyExpressionThatYieldsNullIsRefused() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.kafka.routeOf(new Notice(null), RoutingTarget.forTarget("notices").andKey("#{orderId()}"),
					new Notice(null)))
			.withMessageContaining("is externalized with the key '#{orderId()}', which evaluates to null");
	}

	@Test
	void aTargetThatEvaluatesToNothingIsRefused() {
		assertThatExceptionOfType(OutboxCaptureException.class)
			.isThrownBy(() -> this.kafka.routeOf(new Notice("o-1"), RoutingTarget.forTarget("#{null}").withoutKey(),
					new Notice("o-1")))
			.withMessageContaining("is externalized to '#{null}', which evaluates to no target");
	}

	record Placed(String orderId, String customerId) {
	}

	record Notice(String orderId) {
	}

	record Region(String name) {
	}

}
