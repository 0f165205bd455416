package archlab.run;

import archlab.http.HttpOrderTarget;
import archlab.http.wire.WireBookWorkload;
import archlab.http.wire.WireOpenLoop;
import archlab.http.wire.WireRun;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.LoadSpec;
import archlab.report.Knee;
import archlab.report.SweepRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One rate of a {@link CapacitySweep} over HTTP, offered by the event-loop generator ({@link WireOpenLoop}, the book's
 * mix as {@link WireBookWorkload}) instead of the thread-per-request client: that one runs out of CPU at a few thousand
 * requests per second on two cores, below the service's knee, so a sweep with it finds the generator's limit.
 *
 * <p>Besides the row, each rate keeps who used the CPU (the generator's event loops, the rest of this JVM — the server
 * and the service —, the machine), so that the report can say which side saturated first ({@link #whoSaturated}).
 * Stateless; one rate at a time.
 */
final class WireSweepRate {

    /** The generator's event loops: as in {@code -Dgenerator}. */
    static final int LANES = GeneratorCapacity.LANES;

    /**
     * Who used the CPU during one rate's run.
     *
     * @param ratePerSecond      the offered rate
     * @param generatorPercent   the event loops' CPU time, percent of one core
     * @param use                this JVM's and the machine's CPU, percent of all cores
     * @param sendLagP99Micros   how late the generator started requests, p99, µs
     */
    record Side(int ratePerSecond, double generatorPercent, MachineCpu.Use use, long sendLagP99Micros) {

        /** @return the rest of this JVM (server threads, the service, the JIT, GC), percent of all cores */
        double serverAndServicePercent() {
            int cores = Runtime.getRuntime().availableProcessors();
            return use.jvmPercent() < 0 ? -1 : Math.max(0, use.jvmPercent() - generatorPercent / cores);
        }

        String text() {
            return String.format(Locale.ROOT, "%d req/s: generator's event loops %.0f%% of a core (send lag p99 %.2f ms),"
                            + " server and service %.0f%% of the cores (%s)", ratePerSecond, generatorPercent,
                    sendLagP99Micros / 1e3, serverAndServicePercent(), use.text());
        }
    }

    /** One rate's row and its CPU. */
    record Measured(SweepRow row, Side side) {
    }

    private WireSweepRate() {
    }

    /**
     * Runs {@code spec} against {@code fixture}'s server (a fixture {@link Transport#wrap} served over HTTP).
     *
     * @throws IllegalArgumentException when the fixture is not the book's workload over an {@link HttpOrderTarget}
     */
    static Measured measure(LabFixture fixture, LoadSpec spec) {
        if (!(fixture.workload() instanceof BookWorkload book) || !(book.target() instanceof HttpOrderTarget client)) {
            throw new IllegalArgumentException("a sweep over HTTP needs the book's workload served over HTTP, was "
                    + fixture.workload());
        }
        MachineCpu[] cpu = new MachineCpu[2];
        FixtureRun.Around around = new FixtureRun.Around() {
            @Override
            public void starting() {
                System.gc();
                cpu[0] = MachineCpu.now();
            }

            @Override
            public void loaded() {
                cpu[1] = MachineCpu.now();
            }
        };
        WireBookWorkload workload = WireBookWorkload.of(book, client.baseUri());
        WireRun run;
        try (WireOpenLoop wire = new WireOpenLoop(client.baseUri(), LANES)) {
            run = FixtureRun.between(fixture, around, w -> wire.run(spec, workload));
        }
        MachineCpu.Use use = cpu[0].until(cpu[1]);
        long rejected = run.statuses().getOrDefault(429, 0L);
        // a pay past the pool's end was sent again to a paid order (409): the workload's limit, not the service's failure
        long beyond = Math.min(workload.paysBeyondPool(), run.statuses().getOrDefault(409, 0L));
        long completed = run.requests().completed();
        double wallSeconds = run.cost().wallNanos() > 0 ? run.cost().wallNanos() / 1e9 : spec.duration().toNanos() / 1e9;
        SweepRow row = SweepRow.builder().ratePerSecond(spec.ratePerSecond()).offered(run.requests().offered())
                .completed(completed).timedOut(run.requests().timedOut())
                .failed(Math.max(0, run.requests().failed() - rejected - beyond)).rejected(rejected).poolExhausted(beyond)
                .unfinished(run.requests().unfinished())
                .goodput(run.requests().offered() == 0 ? 0 : (double) completed / run.requests().offered())
                .rpsCompleted(completed / wallSeconds).p50Micros(run.latency().p50Micros())
                .p99Micros(run.latency().p99Micros()).sendLagP99Micros(run.sendLag().p99Micros())
                .cpuShare(use.jvmPercent() < 0 ? SweepRow.CPU_UNKNOWN : use.jvmPercent() / 100.0).build();
        return new Measured(row, new Side(spec.ratePerSecond(), run.cost().cpuPercentOfOneCore(), use,
                run.sendLag().p99Micros()));
    }

    /**
     * Lines for the report: each rate's CPU, then which side gave first at the lowest rate past the knee — the
     * generator when it started requests later than {@code slackNanos} at p99 (its lateness is then in the figures),
     * else the server and the service (the generator's lateness within the slack), with every process's CPU there.
     */
    static List<String> whoSaturated(List<Side> sides, Knee knee, long slackNanos) {
        List<String> lines = new ArrayList<>();
        lines.add("generator (event loops, " + LANES + ") beside the server and the service, per rate:");
        sides.forEach(s -> lines.add("  " + s.text()));
        Side past = knee.firstPastKnee() == null ? null
                : sides.stream().filter(s -> s.ratePerSecond() == knee.firstPastKnee()).findFirst().orElse(null);
        if (past == null) {
            lines.add("no rate past the knee was swept: neither side saturated within the rates asked for");
        } else if (past.sendLagP99Micros() * 1_000L > slackNanos) {
            lines.add(String.format(Locale.ROOT, "the generator saturated first: at %d req/s it started requests %.2f ms"
                    + " late at p99 (over the %.2f ms slack); the knee is a floor of the service's", past.ratePerSecond(),
                    past.sendLagP99Micros() / 1e3, slackNanos / 1e6));
        } else {
            lines.add(String.format(Locale.ROOT, "the server and the service gave first: at %d req/s the generator's send"
                            + " lag p99 %.2f ms was within the %.2f ms slack, its event loops using %.0f%% of a core; the server"
                            + " and the service %.0f%% of the cores (%s)", past.ratePerSecond(), past.sendLagP99Micros() / 1e3,
                    slackNanos / 1e6, past.generatorPercent(), past.serverAndServicePercent(), past.use().text()));
        }
        return lines;
    }
}
