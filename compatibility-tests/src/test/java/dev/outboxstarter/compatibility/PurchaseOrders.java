package dev.outboxstarter.compatibility;

import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface PurchaseOrders extends JpaRepository<PurchaseOrder, UUID> {

}
