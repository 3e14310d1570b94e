package dev.outboxstarter.internal.capture;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.util.ClassUtils;

/**
 * The transaction managers of the context, told apart by whether they run their transactions on an
 * outbox's data source: for the message that refuses an event published in a transaction of another
 * one. Looked up only then.
 */
public class OutboxTransactionManagers {

	private static final boolean jpaPresent = ClassUtils.isPresent("org.springframework.orm.jpa.JpaTransactionManager",
			OutboxTransactionManagers.class.getClassLoader());

	private final ListableBeanFactory beanFactory;

	public OutboxTransactionManagers(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Explains, for an event published in a transaction whose connection to an outbox's data source is
	 * in auto-commit, which transaction managers run their transactions on that data source and which
	 * do not, by bean name, and what to do.
	 * @param dataSource the outbox's data source
	 * @param transactionName the name of the current transaction, if it has one
	 * @return sentences to append to the refusal
	 */
	String explainOtherTransaction(DataSource dataSource, @Nullable String transactionName) {
		List<String> outbox = new ArrayList<>();
		List<String> others = new ArrayList<>();
		for (String name : this.beanFactory.getBeanNamesForType(PlatformTransactionManager.class, false, false)) {
			PlatformTransactionManager manager = this.beanFactory.getBean(name, PlatformTransactionManager.class);
			(runsOn(manager, dataSource) ? outbox : others).add(name);
		}
		StringBuilder explanation = new StringBuilder("The transaction");
		if (transactionName != null) {
			explanation.append(" '").append(transactionName).append("'");
		}
		explanation.append(" belongs to a transaction manager of another data source");
		if (!others.isEmpty()) {
			explanation.append(" (").append((others.size() > 1) ? "one of " : "").append(quoted(others)).append(")");
		}
		explanation.append(", not to the outbox DataSource's: the outbox row would commit on its own at once, even "
				+ "if the business change then rolls back. Run the code that publishes it in a transaction of ");
		if (outbox.isEmpty()) {
			explanation.append("a transaction manager of the outbox DataSource (a DataSourceTransactionManager or "
					+ "JpaTransactionManager on it)");
		}
		else {
			explanation.append("the outbox DataSource's transaction manager").append((outbox.size() > 1) ? "s " : " ")
				.append(quoted(outbox))
				.append(", e.g. @Transactional(\"")
				.append(outbox.get(0))
				.append("\")");
		}
		return explanation.toString();
	}

	/**
	 * Whether a transaction manager runs its transactions on a data source.
	 * @param manager the transaction manager
	 * @param dataSource the data source
	 * @return whether its transactions hold a connection of the data source
	 */
	public static boolean runsOn(PlatformTransactionManager manager, DataSource dataSource) {
		if (manager instanceof ResourceTransactionManager resourceManager
				&& resourceManager.getResourceFactory() == dataSource) {
			return true;
		}
		return jpaPresent && JpaDataSource.of(manager) == dataSource;
	}

	private static String quoted(List<String> names) {
		return names.stream().map((name) -> "'" + name + "'").collect(Collectors.joining(", "));
	}

	/** Kept apart so that the class loads without JPA. */
	private static final class JpaDataSource {

		static @Nullable DataSource of(PlatformTransactionManager manager) {
			return (manager instanceof JpaTransactionManager jpa) ? jpa.getDataSource() : null;
		}

	}

}
