package dev.outboxstarter.schemaregistry.app;

import java.util.List;

import javax.enterprise.inject.Produces;
import javax.inject.Singleton;

import io.apicurio.common.apps.config.DynamicConfigPropertyList;

/**
 * The list of the registry's settings that can be changed at run time, which the registry's
 * {@code config-index} Quarkus extension builds at build time. That extension's build step is not
 * available (see the exclusion in this module's pom.xml), so the list is empty: every setting keeps
 * the value it starts with, which is all the tests need.
 */
class DynamicConfigurationList {

	@Produces
	@Singleton
	DynamicConfigPropertyList dynamicConfigPropertyList() {
		return new DynamicConfigPropertyList(List.of());
	}

}
