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
     * Who used the CPU during one rate's run, over the same window for every figure: from just before the generator
     * opened its connections to the end of its phase (after the transport's own warm-up).
     *
     * @param ratePerSecond      the offered rate
     * @param generatorPercent   the event loops' CPU time, percent of one core
     * @param use                this JVM's and the machine's CPU, percent of all cores
     * @param sendLagP99Micros   how late requests were written against their plan, p99, µs: the generator's own
     *                           lateness plus any wait for a free connection
     * @param waitedForOne       requests that found every connection busy when due (their send lag is that wait)
     * @param started            requests written
     */
    record Side(int ratePerSecond, double generatorPercent, MachineCpu.Use use, long sendLagP99Micros, long waitedForOne,
                long started) {

        /** @return the rest of this JVM (server threads, the service, the JIT, GC), percent of all cores */
        double serverAndServicePercent() {
            int cores = Runtime.getRuntime().availableProcessors();
            return use.jvmPercent() < 0 ? -1 : Math.max(0, use.jvmPercent() - generatorPercent / cores);
        }

        /** @return whether at least 1% of the requests waited for a connection: the server held them */
        boolean serverHeldConnections() {
            return waitedForOne * 100 >= Math.max(1, started);
        }

        String text() {
            return String.format(Locale.ROOT, "%d req/s: generator's event loops %.0f%% of a core (send lag p99 %.2f ms,"
                            + " %d of %d requests waited for a free connection), server and service %.0f%% of the cores (%s)",
                    ratePerSecond, generatorPercent, sendLagP99Micros / 1e3, waitedForOne, started,
                    serverAndServicePercent(), use.text());
        }
    }

    /** One rate's row and its CPU. */
    record Measured(SweepRow row, Side side) {
    }

    /**
     * What one rate's run ended with, as counted on the wire.
     *
     * @param completed     2xx before the deadline
     * @param timedOut      answered at or past the deadline, or never
     * @param failed        any other status before the deadline, or a connection lost under the request
     * @param notStarted    no connection took them before their deadline
     * @param rejected429   of {@code failed}: 429, the limiter's refusal
     * @param paidAgain409  of {@code failed}: 409s, at most the pays sent past the pool's end
     */
    record Ends(long completed, long timedOut, long failed, long notStarted, long rejected429, long paidAgain409) {
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
        WireBookWorkload workload = WireBookWorkload.of(book, client.baseUri());
        WireRun run;
        try (WireOpenLoop wire = new WireOpenLoop(client.baseUri(), LANES)) {
            run = FixtureRun.between(fixture, new FixtureRun.Around() {
                @Override
                public void starting() {
                    System.gc(); // the previous rate's garbage is collected now, not during this rate
                }
            }, w -> {
                cpu[0] = MachineCpu.now(); // after the transport's warm-up: the window of the event loops' own figures
                WireRun r = wire.run(spec, workload);
                cpu[1] = MachineCpu.now();
                return r;
            });
        }
        MachineCpu.Use use = cpu[0].until(cpu[1]);
        long late409s = Math.min(workload.paysBeyondPool(), run.statuses().getOrDefault(409, 0L));
        Ends ends = new Ends(run.requests().completed(), run.requests().timedOut(), run.requests().failed(),
                run.requests().notStarted(), run.statuses().getOrDefault(429, 0L), late409s);
        double wallSeconds = run.cost().wallNanos() > 0 ? run.cost().wallNanos() / 1e9 : spec.duration().toNanos() / 1e9;
        SweepRow row = row(spec.ratePerSecond(), run.requests().offered(), run.requests().unfinished(), ends).toBuilder()
                .rpsCompleted(ends.completed() / wallSeconds).p50Micros(run.latency().p50Micros())
                .p99Micros(run.latency().p99Micros()).sendLagP99Micros(run.sendLag().p99Micros())
                .cpuShare(use.jvmPercent() < 0 ? SweepRow.CPU_UNKNOWN : use.jvmPercent() / 100.0).build();
        return new Measured(row, new Side(spec.ratePerSecond(), run.cost().cpuPercentOfOneCore(), use,
                run.sendLag().p99Micros(), run.connections().waitedForOne(), run.requests().started()));
    }

    /**
     * The row's counts from the wire's: a request no connection took before its deadline ended at it (timed out);
     * of the failures, a 429 is the limiter's refusal ({@code rejected}) and a 409 of a pay past the pool's end the
     * workload's limit ({@code pool_exh}), each taken out of {@code failed} at most once, so the counts add up to
     * what ended. Latency, send lag and CPU are left for the caller.
     */
    static SweepRow row(int ratePerSecond, long offered, long unfinished, Ends e) {
        long rejected = Math.min(e.rejected429(), e.failed());
        long poolExhausted = Math.min(e.paidAgain409(), e.failed() - rejected);
        return SweepRow.builder().ratePerSecond(ratePerSecond).offered(offered).completed(e.completed())
                .timedOut(e.timedOut() + e.notStarted()).failed(e.failed() - rejected - poolExhausted).rejected(rejected)
                .poolExhausted(poolExhausted).unfinished(unfinished)
                .goodput(offered == 0 ? 0 : (double) e.completed() / offered).build();
    }

    /**
     * Lines for the report: each rate's CPU, then which side gave first at the lowest rate past the knee: the
     * generator when it wrote requests later than {@code slackNanos} at p99 though its connections were free (its
     * own lateness); the server when its slow answers held the connections (1% of the requests or more waited for
     * one: that wait is the send lag); else the server and the service, the generator's lateness within the slack.
     */
    static List<String> whoSaturated(List<Side> sides, Knee knee, long slackNanos) {
        List<String> lines = new ArrayList<>();
        lines.add("generator (event loops, " + LANES + ") beside the server and the service, per rate:");
        sides.forEach(s -> lines.add("  " + s.text()));
        Side past = knee.firstPastKnee() == null ? null
                : sides.stream().filter(s -> s.ratePerSecond() == knee.firstPastKnee()).findFirst().orElse(null);
        if (past == null) {
            lines.add("no rate past the knee was swept: neither side saturated within the rates asked for");
        } else if (past.sendLagP99Micros() * 1_000L > slackNanos && !past.serverHeldConnections()) {
            lines.add(String.format(Locale.ROOT, "the generator saturated first: at %d req/s it wrote requests %.2f ms"
                    + " late at p99 (over the %.2f ms slack) with its connections free; the knee is a floor of the"
                    + " service's", past.ratePerSecond(), past.sendLagP99Micros() / 1e3, slackNanos / 1e6));
        } else if (past.sendLagP99Micros() * 1_000L > slackNanos) {
            lines.add(String.format(Locale.ROOT, "the server gave first: at %d req/s its answers held the generator's"
                            + " connections (%d of %d requests waited for one), and that wait is the send lag p99 of %.2f ms;"
                            + " the server and the service %.0f%% of the cores (%s)", past.ratePerSecond(), past.waitedForOne(),
                    past.started(), past.sendLagP99Micros() / 1e3, past.serverAndServicePercent(), past.use().text()));
        } else {
            lines.add(String.format(Locale.ROOT, "the server and the service gave first: at %d req/s the generator's send"
                            + " lag p99 %.2f ms was within the %.2f ms slack, its event loops using %.0f%% of a core; the server"
                            + " and the service %.0f%% of the cores (%s)", past.ratePerSecond(), past.sendLagP99Micros() / 1e3,
                    slackNanos / 1e6, past.generatorPercent(), past.serverAndServicePercent(), past.use().text()));
        }
        return lines;
    }
}
