package dev.outboxstarter.sample.simulation;

import java.util.Map;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code PUT /simulation/outage} starts a simulated broker outage, {@code DELETE} ends it,
 * {@code GET /simulation/outage} tells whether one is on.
 */
@RestController
@RequestMapping("/simulation/outage")
class SimulationController {

	private final BrokerOutage outage;

	SimulationController(BrokerOutage outage) {
		this.outage = outage;
	}

	@GetMapping
	Map<String, Boolean> state() {
		return Map.of("active", this.outage.isActive());
	}

	@PutMapping
	Map<String, Boolean> begin() {
		this.outage.begin();
		return state();
	}

	@DeleteMapping
	Map<String, Boolean> end() {
		this.outage.end();
		return state();
	}

}
