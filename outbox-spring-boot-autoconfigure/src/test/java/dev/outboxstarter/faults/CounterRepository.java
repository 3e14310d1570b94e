package dev.outboxstarter.faults;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface CounterRepository extends JpaRepository<Counter, Integer> {

	@Lock(LockModeType.PESSIMISTIC_WRITE)
	@Query("select c from Counter c where c.id = :id")
	Counter lockById(@Param("id") int id);

}
