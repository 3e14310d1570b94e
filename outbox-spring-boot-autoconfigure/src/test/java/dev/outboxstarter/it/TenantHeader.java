package dev.outboxstarter.it;

import java.util.Map;

import dev.outboxstarter.spi.EventHeadersContributor;

/**
 * Stores a {@code tenant} header with every event, so that tests see whether headers are shown.
 */
class TenantHeader implements EventHeadersContributor {

	static final String TENANT = "acme";

	@Override
	public void contribute(Map<String, String> headers) {
		headers.put("tenant", TENANT);
	}

}
