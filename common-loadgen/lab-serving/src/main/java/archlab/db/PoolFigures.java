package archlab.db;

import archlab.timeline.IntervalMaxima;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * A measured pool's figures of one run ({@link LabDatabase#figures()}): every borrow's wait for a connection, every
 * connection's time out of the pool, the connections in use and the threads waiting for one (the most at once, over the
 * run and per interval of {@link IntervalMaxima#INTERVAL} from the run's start, sampled every 5 ms).
 *
 * @param size                  the pool's size (fixed)
 * @param connectionWaitNanos   each borrow's wait, ns (HikariCP's {@code recordConnectionAcquiredNanos})
 * @param connectionUsageMillis each connection's time out of the pool, ms (HikariCP's {@code recordConnectionUsageMillis})
 * @param timeouts              borrows that gave up after the pool's connection timeout
 * @param timeline              the pool per interval
 */
public record PoolFigures(int size, Histogram connectionWaitNanos, Histogram connectionUsageMillis, long timeouts,
                          Timeline timeline) {

    /**
     * The pool per interval, from the run's start to the last interval in which anything was above 0.
     *
     * @param connectionWaitMaxNanos the longest borrow wait that ended in each interval, ns
     * @param activeMaxes            the most connections in use in each interval
     * @param waitingMaxes           the most threads waiting for a connection in each interval
     */
    public record Timeline(List<Long> connectionWaitMaxNanos, List<Long> activeMaxes, List<Long> waitingMaxes) {
        public Timeline {
            connectionWaitMaxNanos = List.copyOf(connectionWaitMaxNanos);
            activeMaxes = List.copyOf(activeMaxes);
            waitingMaxes = List.copyOf(waitingMaxes);
        }
    }

    /** @return the most connections in use at once (sampled) */
    public long activeMax() {
        return timeline.activeMaxes().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** @return the most threads waiting for a connection at once (sampled) */
    public long waitingMax() {
        return timeline.waitingMaxes().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** @return {@code size=10 connection_wait p50=…ms p99=…ms max=…ms n=… active_max=… waiting_max=… …} */
    public String line() {
        Histogram w = connectionWaitNanos;
        Histogram u = connectionUsageMillis;
        return String.format(Locale.ROOT, "size=%d connection_wait p50=%.3fms p99=%.3fms max=%.3fms n=%d active_max=%d"
                        + " waiting_max=%d timeouts=%d connection_held p50=%dms p99=%dms max=%dms",
                size, w.getValueAtPercentile(50) / 1e6, w.getValueAtPercentile(99) / 1e6, w.getMaxValue() / 1e6,
                w.getTotalCount(), activeMax(), waitingMax(), timeouts, u.getValueAtPercentile(50),
                u.getValueAtPercentile(99), u.getMaxValue());
    }

    /** @return {@code interval=100ms from=the run's start connection_wait_max_ms=… active_max=… waiting_max=…} */
    public String timelineLine() {
        return String.format(Locale.ROOT, "interval=%dms from=the run's start connection_wait_max_ms=%s active_max=%s waiting_max=%s",
                IntervalMaxima.INTERVAL.toMillis(), IntervalMaxima.join(IntervalMaxima.millis(timeline.connectionWaitMaxNanos())),
                IntervalMaxima.join(timeline.activeMaxes()), IntervalMaxima.join(timeline.waitingMaxes()));
    }
}
