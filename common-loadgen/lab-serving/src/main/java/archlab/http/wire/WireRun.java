package archlab.http.wire;

import archlab.loadgen.LatencySummary;
import java.util.Map;

/**
 * What one measured phase of a {@link WireOpenLoop} did.
 *
 * @param setup       how the generator ran
 * @param requests    planned, started and how each ended
 * @param latencies   the requests' latency and the generator's send lag
 * @param statuses    answers per HTTP status
 * @param connections the connections it used
 * @param cost        what the generator's event loops spent
 */
public record WireRun(Setup setup, Requests requests, Latencies latencies, Map<Integer, Long> statuses,
                      Connections connections, Cost cost) {

    public WireRun {
        statuses = Map.copyOf(statuses);
    }

    /**
     * @param transport     {@code epoll} or {@code nio}
     * @param lanes         event loops the generator ran on
     * @param ratePerSecond the offered rate
     */
    public record Setup(String transport, int lanes, int ratePerSecond) {
    }

    /**
     * @param latency planned start to the answer's last byte (or to giving up), every request that started
     * @param sendLag planned start to the write: the generator's own lateness
     */
    public record Latencies(LatencySummary latency, LatencySummary sendLag) {
    }

    /**
     * @param offered    planned: {@code rate × duration}
     * @param started    written (or found past their deadline when their turn came)
     * @param notStarted no connection took them before their deadline, or the run ended first
     * @param unfinished started, but neither answered nor given up on when the phase stopped waiting
     * @param ended      how the others ended
     */
    public record Requests(long offered, long started, long notStarted, long unfinished, Ended ended) {
        /** @return answered 2xx before the deadline */
        public long completed() {
            return ended.completed();
        }

        /** @return answered at or past the deadline, or not at all */
        public long timedOut() {
            return ended.timedOut();
        }

        /** @return answered another status, or their connection closed under them */
        public long failed() {
            return ended.failed();
        }
    }

    /**
     * @param completed answered 2xx before the deadline
     * @param timedOut  answered at or past the deadline, or not at all
     * @param failed    answered another status, or their connection closed under them
     */
    public record Ended(long completed, long timedOut, long failed) {
    }

    /** @return {@code epoll} or {@code nio} */
    public String transport() {
        return setup.transport();
    }

    /** @return planned start to the answer's last byte (or to giving up) */
    public LatencySummary latency() {
        return latencies.latency();
    }

    /** @return planned start to the write */
    public LatencySummary sendLag() {
        return latencies.sendLag();
    }

    /**
     * @param open              open when the phase ended
     * @param opened            opened during the phase (a server that closes keep-alive connections makes this grow)
     * @param lost              closed under a request (the server ended it or reset it)
     * @param waitedForOne      requests that found no idle connection when due (their send lag includes the wait)
     */
    public record Connections(int open, long opened, long lost, long waitedForOne) {
    }

    /**
     * @param cpuNanos       the event loops' CPU time
     * @param allocatedBytes what the event loops' threads allocated
     * @param wallNanos      the phase's wall time, from its first planned start
     */
    public record Cost(long cpuNanos, long allocatedBytes, long wallNanos) {
        Cost minus(Cost before, long wall) {
            return new Cost(cpuNanos - before.cpuNanos, allocatedBytes - before.allocatedBytes, wall);
        }

        /** @return the event loops' CPU as percent of one core over the phase */
        public double cpuPercentOfOneCore() {
            return wallNanos <= 0 ? 0 : 100.0 * cpuNanos / wallNanos;
        }
    }

    /** @return the event loops' CPU per request started, microseconds */
    public double cpuMicrosPerRequest() {
        return requests.started() == 0 ? 0 : cost.cpuNanos() / 1e3 / requests.started();
    }

    /** @return bytes the event loops allocated per request started (Netty's response decoder, mostly) */
    public double allocatedBytesPerRequest() {
        return requests.started() == 0 ? 0 : (double) cost.allocatedBytes() / requests.started();
    }
}
