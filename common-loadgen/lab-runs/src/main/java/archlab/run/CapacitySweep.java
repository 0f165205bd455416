package archlab.run;

import archlab.report.Environment;
import archlab.report.Knee;
import archlab.report.LimitEvidence;
import archlab.report.ReportWriter;
import archlab.report.SweepReport;
import archlab.report.SweepRow;
import archlab.report.WarmUp;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.timeline.TimelineSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A capacity sweep of one checkpoint: the same load (mix, timeout, arrival, thread kind) offered at a
 * rising series of rates, each on a fresh fixture, profiles and segment tracing off; one row per rate,
 * then the {@link Knee} and what the rows say {@link LimitEvidence past it}. Writes
 * {@code <reports>/<name>-<module>.txt} and {@code .json} (by default {@code sweep-<module>}).
 *
 * <pre>{@code
 * SweepReport r = CapacitySweep.of("ch12-1-baseline", LoadSpec.book(), 8_000_000L)
 *         .withOverrides()              // -Dlab.sweep.rates=250,500 -Dlab.sweep.duration=2s
 *         .run(BookLab::new);
 * }</pre>
 *
 * <p>Defaults: rates {@link #DEFAULT_RATES}, {@link #DEFAULT_DURATION} per rate; before the first rate the JVM's
 * JIT warm-up if no run of this JVM did it ({@link JitWarmUp}, the same as every load run's), then
 * {@link #DEFAULT_WARMUP} of unmeasured load at the lowest rate (measured without it, the first rate of a cold JVM
 * showed a send-lag p99 of 80 ms: class loading and JIT, not the service). Each rate offers exactly {@code rate × duration}
 * requests. Before each rate the JVM is asked to collect garbage, so one rate's thousands of finished threads
 * are not collected during the next rate's run.
 *
 * <p>Thread-safety: a CapacitySweep is configured and run by one thread.
 */
public final class CapacitySweep implements LabOverrides<CapacitySweep> {

    /** From 250 req/s (half the book baseline's lock-bound capacity) to well past the book's 1,500. */
    public static final List<Integer> DEFAULT_RATES = List.of(250, 500, 750, 1_000, 1_500, 2_000, 3_000, 4_000, 6_000, 8_000);
    /** How long each rate is offered. */
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(3);
    /** System property: the rates, comma-separated, req/s ({@link LabProperties#SWEEP_RATES}). */
    public static final String RATES_PROPERTY = LabProperties.SWEEP_RATES.property();
    /** System property: the duration of each rate ({@code 3s}, {@code 1500ms}, {@code PT2S}; {@link LabProperties#SWEEP_DURATION}). */
    public static final String DURATION_PROPERTY = LabProperties.SWEEP_DURATION.property();
    /** Unmeasured load at the lowest rate before the first measured one, on a throwaway fixture. */
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(1);
    /** System property: the warm-up before the sweep ({@code 0s} for none; {@link LabProperties#SWEEP_WARMUP}). */
    public static final String WARMUP_PROPERTY = LabProperties.SWEEP_WARMUP.property();
    /** At most this many runs of one rate: the first, and reruns while the generator was late (see {@link #attempts}). */
    public static final int DEFAULT_ATTEMPTS = 3;
    /** The system property that overrides {@link #DEFAULT_ATTEMPTS} ({@link LabProperties#SWEEP_ATTEMPTS}). */
    public static final String ATTEMPTS_PROPERTY = LabProperties.SWEEP_ATTEMPTS.property();

    private final String module;
    private final LoadSpec base;
    private final long payFloorNanos;
    private String name = "sweep";
    private List<Integer> rates = DEFAULT_RATES;
    private Duration duration = DEFAULT_DURATION;
    private Duration warmup = DEFAULT_WARMUP;
    private int attempts = DEFAULT_ATTEMPTS;
    private Duration jitWarmUpLength = JitWarmUp.DEFAULT_LENGTH;
    private JitWarmUp jitWarmUp = JitWarmUp.jvm();
    private WarmUp jitWarmed;
    /** How each rate's requests reach the service: {@code -Dlab.transport}, {@code -Dlab.server.threads} ({@link Transport}). */
    private Transport transport = Transport.IN_PROCESS;
    private Path reportsDir = ReportWriter.reportsDir();
    /** Over HTTP, each measured row's CPU: the generator's beside the server's and the service's. */
    private final java.util.Map<SweepRow, WireSweepRate.Side> sideOf = new java.util.HashMap<>();
    private Consumer<String> out = System.out::println;

    private CapacitySweep(String module, LoadSpec base, long payFloorNanos) {
        this.module = module;
        this.base = base;
        this.payFloorNanos = payFloorNanos;
    }

    /**
     * @param module        the checkpoint's artifact id, e.g. "ch12-1-baseline"
     * @param base          the load every rate shares; its rate and duration are replaced, tracing is turned off
     * @param payFloorNanos the synchronous floor of one pay (Σ downstream latencies), ns; the knee allows p99 up
     *                      to twice this
     */
    public static CapacitySweep of(String module, LoadSpec base, long payFloorNanos) {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(base, "base");
        if (payFloorNanos <= 0) {
            throw new IllegalArgumentException("payFloorNanos must be positive, was " + payFloorNanos);
        }
        return new CapacitySweep(module, base, payFloorNanos);
    }

    /** @param n the report's name (file {@code <n>-<module>}); letters, digits, '.', '_' or '-' */
    public CapacitySweep name(String n) {
        this.name = ReportWriter.checkedName(n);
        return this;
    }

    /** @param r the offered rates, req/s: at least one, each 1..1,000,000, no duplicates; swept ascending */
    public CapacitySweep rates(List<Integer> r) {
        this.rates = checkedRates("rates", r, duration);
        return this;
    }

    /** @param d how long each rate is offered; positive, and long enough that every rate offers a request */
    public CapacitySweep duration(Duration d) {
        checkedRates("duration", rates, d);
        this.duration = d;
        return this;
    }

    /**
     * @param w unmeasured load at the lowest rate before the sweep, on a fresh fixture that is then thrown away,
     *          so the first measured rate does not pay for class loading and JIT compilation; zero for none
     */
    public CapacitySweep warmup(Duration w) {
        this.warmup = checkedWarmup(WARMUP_PROPERTY, w);
        return this;
    }

    /** @return the warm-up before the first rate */
    public Duration warmup() {
        return warmup;
    }

    /**
     * @param length how long the JIT warm-up loads a scratch fixture before the sweep, if no run of this JVM warmed
     *               it up yet ({@link JitWarmUp#DEFAULT_LENGTH}); zero for none
     * @param state  whose warm-up: {@link JitWarmUp#jvm()} (the default), or a fresh one in a test
     */
    public CapacitySweep jitWarmUp(Duration length, JitWarmUp state) {
        this.jitWarmUpLength = checkedWarmup(LabProperties.JIT_WARMUP.property(), length);
        this.jitWarmUp = Objects.requireNonNull(state, "state");
        return this;
    }

    /**
     * @param n the most runs of one rate, at least 1. A run the machine disturbed — its send-lag p99 or its hiccup
     *          p99 exceeds the knee's slack (one pay floor: the ceiling is two): the generator fell behind or the
     *          machine stalled — measured the machine, and is run again on a fresh fixture, up to {@code n} runs in
     *          all. The row kept is the first attempt that was not disturbed; when every attempt was, the one with the
     *          median p99, so that one stall does not decide the rate (chosen by the machine's disturbance, never by
     *          the service's latency alone). Every disturbed attempt is listed in the report. 1: every rate runs
     *          once, disturbed or not.
     */
    public CapacitySweep attempts(int n) {
        this.attempts = checkedAttempts(ATTEMPTS_PROPERTY, n);
        return this;
    }

    static int checkedAttempts(String what, int n) {
        if (n < 1 || n > 10) {
            throw new IllegalArgumentException(what + " must be 1..10 runs of one rate, was " + n);
        }
        return n;
    }

    public CapacitySweep reportsDir(Path dir) {
        this.reportsDir = dir;
        return this;
    }

    public CapacitySweep output(Consumer<String> sink) {
        this.out = sink;
        return this;
    }

    /** @return the rates the sweep will offer, ascending */
    public List<Integer> rates() {
        return rates;
    }

    /** @return how long each rate is offered */
    public Duration duration() {
        return duration;
    }

    /**
     * Applies {@code -Dlab.sweep.rates}, {@code -Dlab.sweep.duration}, {@code -Dlab.sweep.warmup},
     * {@code -Dlab.sweep.attempts}, the JIT warm-up and the transport of {@code lab}; all or nothing: bad input leaves
     * this sweep as it was.
     */
    @Override
    public CapacitySweep withOverrides(LabProperties lab) {
        List<Integer> r = lab.get(LabProperties.SWEEP_RATES).orElse(rates);
        Duration d = lab.get(LabProperties.SWEEP_DURATION).orElse(duration);
        List<Integer> checked = checkedRates(RATES_PROPERTY + " / " + DURATION_PROPERTY, r, d);
        rates = checked;
        duration = d;
        warmup = lab.get(LabProperties.SWEEP_WARMUP).orElse(warmup);
        attempts = lab.get(LabProperties.SWEEP_ATTEMPTS).orElse(attempts);
        jitWarmUpLength = lab.get(LabProperties.JIT_WARMUP).orElse(jitWarmUpLength);
        transport = transport.withOverrides(lab);
        return this;
    }

    /** Checks that every rate makes a valid load with {@code d}; returns the rates ascending. */
    private List<Integer> checkedRates(String what, List<Integer> r, Duration d) {
        if (r == null || r.isEmpty()) {
            throw new IllegalArgumentException(what + ": a sweep needs at least one rate");
        }
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(what + ": the duration of each rate must be positive, was " + d);
        }
        TreeSet<Integer> sorted = new TreeSet<>();
        for (Integer rate : r) {
            if (rate == null || !sorted.add(rate)) {
                throw new IllegalArgumentException(what + ": rates must be distinct whole numbers, got " + r);
            }
            try {
                spec(rate, d);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + ": " + rate + " req/s for " + d + " is not a valid load: "
                        + e.getMessage(), e);
            }
        }
        return List.copyOf(sorted);
    }

    static Duration checkedWarmup(String what, Duration w) {
        if (w == null || w.isNegative()) {
            throw new IllegalArgumentException(what + " must be zero or positive, was " + w);
        }
        return w;
    }

    private LoadSpec spec(int rate, Duration d) {
        return base.withRate(rate).withDuration(d).withTraceEvery(0);
    }

    /**
     * Runs every rate on a fresh fixture from {@code freshFixture}, prints a progress line before and a
     * result line after each, then the report, and writes it.
     *
     * @return the report (also written to {@code <reports>/<name>-<module>.txt/.json})
     */
    public SweepReport run(Supplier<? extends LabFixture> unreached) {
        // over HTTP every fixture (each rate's, the warm-ups') is served by a server of its own, as in a load run
        Supplier<LabFixture> freshFixture = () -> transport.wrap(unreached.get());
        List<SweepRow> rows = new ArrayList<>();
        sideOf.clear();
        long ceilingMicros = Knee.P99_PAY_FLOORS * payFloorNanos / 1_000L;
        out.accept(String.format(Locale.ROOT, "[sweep] %s: %d rates x %s each; knee = highest rate with goodput >= %.0f%%"
                + " and p99 <= %.3f ms", module, rates.size(), seconds(duration), Knee.GOODPUT_FLOOR * 100, ceilingMicros / 1e3));
        jitWarmed = jitWarmUp.before(module + "/" + name, jitWarmUpLength, base.withTraceEvery(0), freshFixture,
                TimelineSettings.DEFAULT, line -> out.accept("[sweep] " + line));
        if ((double) rates.get(0) * warmup.toNanos() >= 1e9) { // the warm-up plans at least one request
            out.accept(String.format(Locale.ROOT, "[sweep] %s warm-up: %d req/s for %s on a throwaway fixture (not measured)",
                    module, rates.get(0), seconds(warmup)));
            if (transport.kind() == Transport.Kind.HTTP) { // the event-loop generator warms up beside the server
                try (LabFixture f = freshFixture.get()) {
                    WireSweepRate.measure(f, spec(rates.get(0), warmup));
                }
            } else {
                FixtureRun.once(freshFixture, workload -> new OpenLoopRunner().run(spec(rates.get(0), warmup), workload));
            }
        }
        out.accept("[sweep] " + SweepReport.header());
        List<String> reruns = new ArrayList<>();
        for (int i = 0; i < rates.size(); i++) {
            int rate = rates.get(i);
            out.accept(String.format(Locale.ROOT, "[sweep] %s %d req/s (%d of %d)", module, rate, i + 1, rates.size()));
            List<SweepRow> disturbed = new ArrayList<>();
            SweepRow kept = null;
            for (int attempt = 1; attempt <= attempts && kept == null; attempt++) {
                SweepRow row = measure(freshFixture, rate);
                if (!row.disturbed(payFloorNanos)) {
                    kept = row;
                    break;
                }
                disturbed.add(row);
                String late = String.format(Locale.ROOT,
                        "%d req/s attempt %d of %d: send-lag p99 %.3f ms, hiccup p99 %.3f ms > slack %.3f ms (p99 %.3f ms)%s",
                        rate, attempt, attempts, row.sendLagP99Micros() / 1e3, row.hiccupP99Micros() / 1e3,
                        payFloorNanos / 1e6, row.p99Micros() / 1e3, attempt < attempts ? ", run again" : ", no attempts left");
                reruns.add(late);
                out.accept("[sweep] " + late);
            }
            if (kept == null) {
                kept = SweepRow.medianByP99(disturbed);
            }
            rows.add(kept);
            out.accept("[sweep] " + SweepReport.line(kept, ceilingMicros));
        }
        SweepReport report = report(rows, reruns);
        write(report);
        out.accept(report.text());
        out.accept("sweep report: " + reportsDir.resolve(fileName() + ".txt").toAbsolutePath() + " (+ .json)");
        return report;
    }

    /**
     * One run of {@code rate} on a fresh fixture: in process by the lab's runner; over HTTP by the event-loop generator
     * ({@link WireSweepRate}), whose CPU beside the server's is kept in {@link #sideOf}.
     */
    private SweepRow measure(Supplier<? extends LabFixture> freshFixture, int rate) {
        LoadSpec s = spec(rate, duration);
        try (LabFixture fixture = freshFixture.get()) {
            if (transport.kind() == Transport.Kind.HTTP) {
                WireSweepRate.Measured m = WireSweepRate.measure(fixture, s);
                sideOf.put(m.row(), m.side()); // rows are values: a rerun's equal row carries an equal side
                return m.row();
            }
            ProcessCpuShare cpu = new ProcessCpuShare();
            RunResult result = FixtureRun.between(fixture, cpu, workload -> new OpenLoopRunner().run(s, workload));
            return SweepRow.of(result, cpu.share());
        }
    }

    /** Builds the report of measured rows: knee, evidence past it, settings, environment; no reruns. */
    SweepReport report(List<SweepRow> rows) {
        return report(rows, List.of());
    }

    /** Builds the report of measured rows: knee, evidence past it, the reruns, settings, environment. */
    SweepReport report(List<SweepRow> rows, List<String> reruns) {
        Knee knee = Knee.find(rows, payFloorNanos);
        List<String> evidence = List.of();
        if (knee.firstPastKnee() != null) {
            SweepRow past = rowAt(rows, knee.firstPastKnee());
            SweepRow at = knee.found() ? rowAt(rows, knee.ratePerSecond()) : null;
            evidence = LimitEvidence.between(at, past, knee.rule().p99CeilingMicros());
        }
        // the kept rows' sides, in rate order (over HTTP; none in process)
        List<WireSweepRate.Side> sides = rows.stream().map(sideOf::get).filter(Objects::nonNull).toList();
        if (!sides.isEmpty()) {
            evidence = java.util.stream.Stream.concat(evidence.stream(),
                    WireSweepRate.whoSaturated(sides, knee, payFloorNanos).stream()).toList();
        }
        LoadSpec s = spec(rates.get(0), duration);
        String settings = String.format(Locale.ROOT,
                "rates=%s req/s duration=%s each timeout=%s arrival=%s threads=%s jit_warmup=%s warmup=%s at %d req/s before"
                        + " the first rate (per-rate warmup=%s) trace=off profiles=off pay_floor=%.3fms attempts<=%d per rate"
                        + " (rerun while send-lag p99 or hiccup p99 > pay floor; all disturbed: the median p99 kept)"
                        + " transport=" + transport.kind().name().toLowerCase(Locale.ROOT)
                        + (transport.kind() == Transport.Kind.HTTP ? " server_threads=" + transport.threads().label()
                        + " generator=event loops (archlab.http.wire, " + WireSweepRate.LANES + ")" : ""),
                rates, seconds(duration), seconds(s.timeout()), s.arrival().describe(),
                s.threads().name().toLowerCase(Locale.ROOT), jitWarmed == null ? "none" : jitWarmed.describe(),
                seconds(warmup), rates.get(0), seconds(s.warmup()), payFloorNanos / 1e6, attempts);
        return SweepReport.builder().module(module).name(name).environment(Environment.current()).settings(settings)
                .payFloorNanos(payFloorNanos).rows(rows).knee(knee).limitEvidence(evidence).reruns(reruns).build();
    }

    private static String seconds(Duration d) {
        return java.math.BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString() + "s";
    }

    private static SweepRow rowAt(List<SweepRow> rows, int rate) {
        return rows.stream().filter(r -> r.ratePerSecond() == rate).findFirst().orElseThrow();
    }

    private String fileName() {
        // a sweep on the server's virtual threads keeps its own report, as a load run does
        return transport.reportName(name) + "-" + module;
    }

    private void write(SweepReport report) {
        try {
            Files.createDirectories(reportsDir);
            Files.writeString(reportsDir.resolve(fileName() + ".txt"), report.text(), StandardCharsets.UTF_8);
            ReportWriter.writeJson(reportsDir.resolve(fileName() + ".json"), report);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sweep report to " + reportsDir, e);
        }
    }
}
