package dev.outboxstarter.benchmarks.contenders;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.outboxstarter.benchmarks.Contender;
import dev.outboxstarter.benchmarks.ContenderSettings;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A contender that is a Spring Boot application: each in a package of its own, so component scans do
 * not meet, with the other libraries on the class path switched off: namastack-outbox by its switch,
 * Spring Modulith and JPA by excluding their auto-configurations (a contender that needs them
 * overrides {@code spring.autoconfigure.exclude}).
 */
public abstract class SpringContender implements Contender {

	/** Spring Modulith's auto-configurations, excluded from every context but its own. */
	protected static final String MODULITH_AUTO_CONFIGURATIONS = String.join(",",
			"org.springframework.modulith.events.config.EventPublicationAutoConfiguration",
			"org.springframework.modulith.events.config.EventExternalizationAutoConfiguration",
			"org.springframework.modulith.events.jpa.JpaEventPublicationAutoConfiguration",
			"org.springframework.modulith.events.jpa.archiving.ArchivingAutoConfiguration");

	/**
	 * Hibernate and Spring Data JPA, on the class path for Spring Modulith's JPA registry only. Excluded
	 * from the other contexts: an entity manager factory would replace their JDBC transaction manager
	 * with a JPA one and cost them start-up time, which is not what those contenders measure.
	 */
	protected static final String JPA_AUTO_CONFIGURATIONS = String.join(",",
			"org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
			"org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration");

	private ConfigurableApplicationContext context;

	@Override
	public void start(ContenderSettings settings) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.datasource.url", settings.jdbcUrl());
		properties.put("spring.datasource.username", settings.username());
		properties.put("spring.datasource.hikari.maximum-pool-size", 12);
		properties.put("spring.kafka.bootstrap-servers", settings.bootstrapServers());
		properties.put("bench.topic", settings.topic());
		properties.put("spring.kafka.producer.properties.max.block.ms", settings.maxBlockMillis());
		properties.put("spring.main.banner-mode", "off");
		properties.put("logging.level.org.apache.kafka", "WARN");
		properties.put("namastack.outbox.enabled", false);
		properties.put("spring.autoconfigure.exclude", MODULITH_AUTO_CONFIGURATIONS + "," + JPA_AUTO_CONFIGURATIONS);
		properties.putAll(properties(settings));
		this.context = new SpringApplicationBuilder(application()).web(WebApplicationType.NONE)
			.properties(properties)
			.run();
	}

	/**
	 * The application class, in the contender's own package.
	 * @return the class
	 */
	protected abstract Class<?> application();

	/**
	 * The contender's own properties, overriding the shared ones.
	 * @param settings the settings
	 * @return the properties
	 */
	protected abstract Map<String, Object> properties(ContenderSettings settings);

	protected <T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	@Override
	public void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

}
