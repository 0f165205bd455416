package archlab.hyperfoil;

import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkData;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.core.impl.LocalSimulationRunner;
import io.hyperfoil.core.parser.BenchmarkParser;
import io.hyperfoil.core.parser.ParserException;
import io.hyperfoil.http.statistics.HttpStats;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * Runs a Hyperfoil benchmark in this JVM (Hyperfoil's {@link LocalSimulationRunner}: its controller and one agent,
 * on its own event loops) and keeps Hyperfoil's own statistics of the measured phases: counts, statuses, timeouts,
 * the time its requests waited for a free connection, and its latency histogram (from each request's start on
 * schedule, the wait for a connection included), summed over the measured phases. Nothing is retyped from printed
 * output. Stateless; a run loads the machine, so never run two at once, nor beside another load run.
 */
public final class HyperfoilRun {

    /**
     * What Hyperfoil counted of its requests.
     *
     * @param requests  requests sent
     * @param responses responses received (any status)
     * @param status2xx 2xx responses
     * @param status4xx 4xx responses (a pay of a paid order is a 409)
     * @param status5xx 5xx responses
     */
    public record Answers(long requests, long responses, long status2xx, long status4xx, long status5xx) {
    }

    /**
     * What Hyperfoil counted as lost, and how long its requests waited before they could be sent.
     *
     * @param timeouts         requests Hyperfoil timed out
     * @param connectionErrors requests lost to a connection error
     * @param blockedMillis    time requests waited for a free connection, summed over them, milliseconds
     */
    public record Lost(long timeouts, long connectionErrors, long blockedMillis) {
    }

    /**
     * Hyperfoil's figures of the measured phases.
     *
     * @param answers     counts and statuses
     * @param lost        timeouts, connection errors, the wait for a connection
     * @param latency     response times, nanoseconds, from the moment the session's request step ran (on schedule in
     *                    an open model), so a wait for a free connection is in it; Hyperfoil's timeout starts at the send
     * @param measuredFor the measured phases' length
     * @param deadline    the requests' deadline, what "answered in time" is judged against
     */
    public record Figures(Answers answers, Lost lost, Histogram latency, Duration measuredFor, Duration deadline) {

        /** @return responses within {@link #deadline} of their start (to the histogram's 2 significant digits) */
        public long answeredInTime() {
            return latency.getCountBetweenValues(0, deadline.toNanos());
        }

        /** @return responses within the deadline per second of the measured phases: the lab's "completed" per second */
        public double inTimePerSecond() {
            return answeredInTime() / (measuredFor.toNanos() / 1e9);
        }

        /** @return the latency at {@code percentile} (0-100), milliseconds */
        public double latencyMillis(double percentile) {
            return latency.getValueAtPercentile(percentile) / 1e6;
        }

        /** @return the longest response time, milliseconds */
        public double maxMillis() {
            return latency.getMaxValue() / 1e6;
        }
    }

    private HyperfoilRun() {
    }

    /**
     * Parses {@code yaml} with Hyperfoil's own parser.
     *
     * @throws IllegalArgumentException when Hyperfoil refuses the benchmark, with its reason
     */
    public static Benchmark parse(String yaml) {
        try {
            return BenchmarkParser.instance().buildBenchmark(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)),
                    BenchmarkData.EMPTY, Map.of());
        } catch (ParserException | IOException | RuntimeException e) {
            throw new IllegalArgumentException("Hyperfoil refused the benchmark: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code benchmark}'s file in this JVM and returns the figures of its measured phases (those named after
     * an operation; the warm-up phases are left out).
     *
     * @throws IllegalStateException when Hyperfoil ends a phase with an error (its reason in the message)
     */
    public static Figures run(HyperfoilBenchmark benchmark) {
        Benchmark parsed = parse(benchmark.yaml());
        Set<String> measured = Set.copyOf(HyperfoilBenchmark.operations());
        Map<String, StatisticsSnapshot> byPhase = new LinkedHashMap<>();
        List<String> outOfSessions = new ArrayList<>();
        // the consumer is called with the deltas since its last call (the collector resets each snapshot it hands out),
        // from the runner's synchronized publishStats, on whichever thread ended a phase: the map is guarded by itself
        LocalSimulationRunner runner = new LocalSimulationRunner(parsed, (Phase phase, int stepId, String metric,
                StatisticsSnapshot snapshot, io.hyperfoil.core.util.CountDown countDown) -> {
            if (measured.contains(phase.name())) {
                synchronized (byPhase) {
                    byPhase.computeIfAbsent(phase.name(), p -> new StatisticsSnapshot()).add(snapshot);
                }
            }
        }, null, null) {
            @Override
            protected CompletableFuture<Void> phaseChanged(Phase phase, PhaseInstance.Status status,
                                                           boolean sessionLimitExceeded, Throwable error) {
                if (sessionLimitExceeded) {
                    synchronized (outOfSessions) {
                        outOfSessions.add(phase.name());
                    }
                }
                return super.phaseChanged(phase, status, sessionLimitExceeded, error);
            }
        };
        try {
            runner.run();
        } catch (RuntimeException e) {
            throw new IllegalStateException("Hyperfoil's run of " + benchmark.name() + " failed: " + e.getMessage(), e);
        }
        synchronized (outOfSessions) {
            if (!outOfSessions.isEmpty()) {
                throw new IllegalStateException("Hyperfoil ran out of sessions in " + outOfSessions + ": it held users"
                        + " back, and its figures are no longer an open model's");
            }
        }
        StatisticsSnapshot all = new StatisticsSnapshot();
        synchronized (byPhase) {
            byPhase.values().forEach(all::add);
        }
        HttpStats http = HttpStats.get(all);
        return new Figures(new Answers(all.requestCount, all.responseCount, http.status_2xx, http.status_4xx,
                http.status_5xx), new Lost(all.requestTimeouts, all.connectionErrors, all.blockedTime / 1_000_000),
                all.histogram.copy(), benchmark.duration(), benchmark.timeout());
    }
}
