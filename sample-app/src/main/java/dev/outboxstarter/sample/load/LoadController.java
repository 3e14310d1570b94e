package dev.outboxstarter.sample.load;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /load?orders=1000&rate=200} places 1,000 orders at 200 per second; {@code GET /load}
 * shows the progress.
 */
@RestController
@RequestMapping("/load")
class LoadController {

	static final int MAX_ORDERS = 1_000_000;

	static final int MAX_RATE = 10_000;

	private final LoadGenerator generator;

	LoadController(LoadGenerator generator) {
		this.generator = generator;
	}

	@PostMapping
	LoadGenerator.Progress start(@RequestParam int orders, @RequestParam(defaultValue = "100") int rate) {
		if (orders < 1 || orders > MAX_ORDERS) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"orders must be between 1 and " + MAX_ORDERS + ", not " + orders);
		}
		if (rate < 1 || rate > MAX_RATE) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"rate must be between 1 and " + MAX_RATE + " orders per second, not " + rate);
		}
		try {
			return this.generator.start(orders, rate);
		}
		catch (IllegalStateException ex) {
			throw new ResponseStatusException(HttpStatus.CONFLICT, ex.getMessage());
		}
	}

	@GetMapping
	LoadGenerator.Progress progress() {
		return this.generator.progress();
	}

}
