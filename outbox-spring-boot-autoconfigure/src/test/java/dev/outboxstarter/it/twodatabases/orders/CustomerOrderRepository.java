package dev.outboxstarter.it.twodatabases.orders;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

public interface CustomerOrderRepository extends JpaRepository<CustomerOrder, Long> {

	List<CustomerOrder> findByCustomer(String customer);

}
