package dev.outboxstarter.modulith;

import java.util.Map;

import dev.outboxstarter.Outbox;
import dev.outboxstarter.OutboxConfigurationException;
import dev.outboxstarter.OutboxEventRouter;
import dev.outboxstarter.core.OutboxAutoConfiguration;
import dev.outboxstarter.core.OutboxProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.ExternalizationMode;
import org.springframework.util.ClassUtils;

/**
 * Spring Modulith's outbox mode through this starter. The mode switches Modulith's own after-commit
 * externalization off and leaves the events to an outbox library, so once it is on, an application
 * that cannot write them to the outbox would lose them: it is refused at start-up instead. Before
 * Modulith 2.1, which has no such mode, it does nothing. Public so that applications can exclude it
 * or order their own auto-configuration after it.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class,
		afterName = "org.springframework.modulith.events.config.EventExternalizationAutoConfiguration")
@ConditionalOnClass({ EventExternalizationConfiguration.class, ExternalizationMode.class })
@ConditionalOnProperty(name = ExternalizationMode.PROPERTY, havingValue = "outbox")
@ConditionalOnBooleanProperty(name = "spring.modulith.events.externalization.enabled", matchIfMissing = true)
public final class ModulithOutboxAutoConfiguration {

	/** Modulith's own outbox integrations by their artifacts: each would write the events to an outbox too. */
	private static final Map<String, String> OTHER_OUTBOXES = Map.of("spring-modulith-events-namastack",
			"org.springframework.modulith.events.namastack.NamastackOutboxEventRecorderAutoConfiguration",
			"spring-modulith-events-jobrunr",
			"org.springframework.modulith.events.jobrunr.JobRunrEventExternalizationAutoConfiguration");

	@Bean
	ExternalizedEventCapture externalizedEventCapture(ObjectProvider<EventExternalizationConfiguration> configuration,
			ObjectProvider<Outbox> outbox, ObjectProvider<OutboxProperties> properties,
			ObjectProvider<OutboxEventRouter> routers, ConfigurableListableBeanFactory beans) {
		OTHER_OUTBOXES.forEach((artifact, autoConfiguration) -> {
			if (ClassUtils.isPresent(autoConfiguration, beans.getBeanClassLoader())) {
				throw new OutboxConfigurationException(ExternalizationMode.PROPERTY + " is 'outbox', and both "
						+ "outbox-spring-modulith and " + artifact
						+ " are on the classpath: each would write every externalized event to an outbox of its own",
						"Keep one of them: remove " + artifact + " to publish through this starter, or "
								+ "outbox-spring-modulith to keep the other outbox.");
			}
		});
		EventExternalizationConfiguration externalization = configuration.getIfAvailable();
		if (externalization == null) {
			throw new OutboxConfigurationException(ExternalizationMode.PROPERTY
					+ " is 'outbox', but there is no EventExternalizationConfiguration bean, so no event would be "
					+ "selected for the outbox",
					"Add Spring Modulith's event support (spring-modulith-starter-jdbc or spring-modulith-starter-jpa, "
							+ "which bring spring-modulith-events-core), or declare an EventExternalizationConfiguration bean.");
		}
		Outbox events = outbox.getIfAvailable();
		OutboxProperties settings = properties.getIfAvailable();
		if (events == null || settings == null) {
			throw new OutboxConfigurationException(ExternalizationMode.PROPERTY
					+ " is 'outbox', which switches Modulith's own externalization off, but the outbox is not "
					+ "configured (no Outbox bean), so externalized events would be lost",
					"Give the application one DataSource and leave outbox.enabled on, or set "
							+ ExternalizationMode.PROPERTY + " back to 'module-listener' and remove "
							+ "outbox-spring-modulith.");
		}
		return new ExternalizedEventCapture(externalization,
				new ExternalizationRoutes(settings.getDefaultTransport(), beans),
				new OutboxOwnRoutes(routers.orderedStream().toList(), settings.getRoutes()), events);
	}

}
