package archlab.db.ladder;

import java.time.YearMonth;
import java.util.List;
import java.util.Map;

/**
 * Where the interface reads one customer's orders of one month: {@link RecentOrdersQuery} on PostgreSQL, or a test's
 * stand-in. Implementations are called from many request threads at once.
 */
@FunctionalInterface
public interface OrdersSource {

    /**
     * @return the orders, newest first, each a column-to-value map, and what the read cost
     * @throws Refused when the database refuses or cannot be reached
     */
    Read read(long customer, YearMonth month);

    /**
     * @param orders              the orders, newest first, column to value (times as ISO-8601 text)
     * @param connectionWaitNanos the wait for the pool's connection, ns
     * @param databaseNanos       the statements, their rows and the commit, ns (lock waits included)
     */
    record Read(List<Map<String, Object>> orders, long connectionWaitNanos, long databaseNanos) {
        public Read {
            orders = List.copyOf(orders);
        }
    }

    /** The database refused: its first line of message, no stack trace for a client. */
    final class Refused extends RuntimeException {
        public Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
