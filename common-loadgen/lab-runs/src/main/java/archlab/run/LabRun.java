package archlab.run;

import archlab.report.Environment;
import archlab.report.ProfileSection;
import archlab.report.ReportWriter;
import archlab.report.RunReport;
import archlab.report.Spread;
import archlab.report.WarmUp;
import archlab.loadgen.LoadSpec;
import archlab.clock.NanoClock;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.profile.JfrRecorder;
import archlab.profile.ProfileReport;
import archlab.profile.ProfileSettings;
import archlab.timeline.Interval;
import archlab.timeline.TimelineSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One named load run of one module, end to end: warm the JVM's JIT up on a scratch fixture if no run of this JVM did
 * ({@link JitWarmUp}), build a fresh fixture, record JFR around the run (optional), run the open-loop load with its
 * timeline and hiccup probe, let the fixture settle, read the profiles back, and write the report (text first, JSON
 * beside it, the interval log {@code .hlog} and the {@code .jfr} beside both) under the module's
 * {@code target/reports/}. Every chapter module calls this with the same load and the same warm-up, so their reports
 * compare.
 *
 * <p>Readers may change the load from the command line without touching code; {@link LabProperties} reads every
 * {@code -Dlab.*} key, a bad value or an unknown key stops the run before it starts with a message naming it:
 * {@code -Dlab.rate=1500 -Dlab.duration=3s -Dlab.timeout=200ms -Dlab.threads=platform|virtual
 * -Dlab.arrival=fixed|poisson:SEED -Dlab.warmup=0s -Dlab.jit.warmup=3s -Dlab.trace=1 -Dlab.interval=100ms
 * -Dlab.repeat=1 -Dlab.profile=true -Dlab.transport=inprocess|http -Dlab.server.threads=platform|virtual}; the transport
 * wraps every fixture the run builds, the JIT warm-up's too ({@link Transport}).
 *
 * <p>Thread-safety: a LabRun is used by one thread.
 */
public final class LabRun implements LabOverrides<LabRun> {

    /** What a run returns: the report (of the last repetition, with the spread), its profile, where it was written. */
    public record Reports(RunReport report, ProfileReport profile, Path textFile, List<RunReport> repetitions) {
        public RunResult run() {
            return report.run();
        }

        /** @return whether the run's requests crossed a socket ({@code -Dlab.transport=http}): its report says so */
        public boolean overTheWire() {
            return String.valueOf(report.extraByName().get(RunReport.TRANSPORT_LINE)).startsWith("http");
        }
    }

    private final String module;
    private final String name;
    private LoadSpec spec = LoadSpec.book();
    private boolean profiled = true;
    private int repetitions = 1;
    private TimelineSettings timeline = TimelineSettings.DEFAULT;
    private Duration jitWarmUpLength = JitWarmUp.DEFAULT_LENGTH;
    private JitWarmUp jitWarmUp = JitWarmUp.jvm();
    private Path reportsDir = ReportWriter.reportsDir();
    private Consumer<String> out = System.out::println;
    private Transport transport = Transport.IN_PROCESS;
    private archlab.db.StoreKind store = archlab.db.StoreKind.MEMORY;
    private archlab.redis.CacheKind cache = archlab.redis.CacheKind.LOCAL;
    private String changedSettings = "";
    private Optional<LongRunSettings> longRun = Optional.empty();

    /** What a run's report name gets with {@code -Dlab.store=postgres}: {@code baseline-postgres}, {@code baseline-http-postgres}. */
    public static final String POSTGRES_SUFFIX = "-postgres";
    /** What a run's report name gets with {@code -Dlab.cache=redis}: {@code baseline-redis}, {@code baseline-postgres-redis}. */
    public static final String REDIS_SUFFIX = "-redis";

    private LabRun(String module, String name) {
        this.module = module;
        this.name = name;
    }

    /** @param module the module's artifact id; @param name the report's name (file name) */
    public static LabRun named(String module, String name) {
        return new LabRun(module, ReportWriter.checkedName(name));
    }

    public LabRun spec(LoadSpec s) {
        this.spec = s;
        return this;
    }

    public LabRun profiled(boolean p) {
        this.profiled = p;
        return this;
    }

    public LabRun repetitions(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("repetitions must be at least 1, was " + n);
        }
        this.repetitions = n;
        return this;
    }

    /** @param t the timeline's interval and the hiccup probe's period ({@link TimelineSettings#DEFAULT}: 100 ms, 1 ms) */
    public LabRun timeline(TimelineSettings t) {
        this.timeline = java.util.Objects.requireNonNull(t, "timeline");
        return this;
    }

    /**
     * @param length how long the JIT warm-up loads a scratch fixture before the JVM's first measured run
     *               ({@link JitWarmUp#DEFAULT_LENGTH}); zero for none
     * @param state  whose warm-up: {@link JitWarmUp#jvm()} (the default: once per JVM), or a fresh one in a test
     */
    public LabRun jitWarmUp(Duration length, JitWarmUp state) {
        if (length == null || length.isNegative()) {
            throw new IllegalArgumentException("the JIT warm-up must be zero or positive, was " + length);
        }
        this.jitWarmUpLength = length;
        this.jitWarmUp = java.util.Objects.requireNonNull(state, "state");
        return this;
    }

    public LabRun reportsDir(Path dir) {
        this.reportsDir = dir;
        return this;
    }

    /** @param t how the runner reaches each fixture's service ({@link Transport#IN_PROCESS} unless told) */
    public LabRun transport(Transport t) {
        this.transport = java.util.Objects.requireNonNull(t, "transport");
        return this;
    }

    /** @return how the runner reaches the service (after overrides) */
    public Transport transport() {
        return transport;
    }

    public LabRun output(Consumer<String> sink) {
        this.out = sink;
        return this;
    }

    /** Applies the {@code lab.*} keys of {@code p} and its {@code -Dlong} ({@link LongRunSettings}); all or nothing. */
    @Override
    public LabRun withOverrides(java.util.Properties p) {
        LabProperties lab = LabProperties.read(p);
        Optional<LongRunSettings> asked = LongRunSettings.from(p, lab);
        withOverrides(lab);
        longRun = asked;
        return this;
    }

    /** Applies the load run's keys of {@code lab}; all or nothing (see {@link LabOverrides}). */
    @Override
    public LabRun withOverrides(LabProperties lab) {
        if (lab.get(LabProperties.LOOP).orElse(archlab.loadgen.Loop.OPEN) == archlab.loadgen.Loop.CLOSED) {
            throw new IllegalArgumentException("lab.loop=closed: a load run's report is the open loop's; the closed loop"
                    + " runs in the side-by-side table: mvn -pl <module> test -Dwrk [-Dlab.loop.connections=N]");
        }
        LoadSpec s = spec;
        s = apply(lab, LabProperties.RATE, s, LoadSpec::withRate);
        s = apply(lab, LabProperties.DURATION, s, LoadSpec::withDuration);
        s = apply(lab, LabProperties.TIMEOUT, s, LoadSpec::withTimeout);
        s = apply(lab, LabProperties.WARMUP, s, LoadSpec::withWarmup);
        s = apply(lab, LabProperties.TRACE, s, LoadSpec::withTraceEvery);
        s = apply(lab, LabProperties.THREADS, s, LoadSpec::withThreads);
        s = apply(lab, LabProperties.ARRIVAL, s, LoadSpec::withArrival);
        TimelineSettings t = lab.get(LabProperties.INTERVAL).map(timeline::withInterval).orElse(timeline);
        // every value is good: apply them together
        spec = s;
        timeline = t;
        repetitions = lab.get(LabProperties.REPEAT).orElse(repetitions);
        profiled = lab.get(LabProperties.PROFILE).orElse(profiled);
        jitWarmUpLength = lab.get(LabProperties.JIT_WARMUP).orElse(jitWarmUpLength);
        transport = transport.withOverrides(lab);
        store = lab.get(LabStore.STORE).orElse(store);
        cache = lab.get(LabCache.CACHE).orElse(cache);
        changedSettings = ChangedSettings.suffix(lab);
        return this;
    }

    /**
     * Applies one override when it is given, turning LoadSpec's own refusal (rate 0, negative timeout…) into a message
     * naming the key.
     */
    private static <T> LoadSpec apply(LabProperties lab, LabProperties.Key<T> key, LoadSpec s,
            java.util.function.BiFunction<LoadSpec, T, LoadSpec> change) {
        Optional<T> value = lab.get(key);
        if (value.isEmpty()) {
            return s;
        }
        try {
            return change.apply(s, value.get());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key.property() + "='" + lab.given(key).orElseThrow() + "' is not a valid load: "
                    + e.getMessage(), e);
        }
    }

    /**
     * @return the name the report is written under: a run on the server's virtual threads never overwrites the same
     *         run on its platform threads, nor one on PostgreSQL the same run in memory, nor one with the reader's
     *         {@code -Dlab.timeout=300ms} the book's ({@link ChangedSettings}): each keeps its report, to be laid side
     *         by side
     */
    String reportName() {
        return transport.reportName(this.name) + (store == archlab.db.StoreKind.POSTGRES ? POSTGRES_SUFFIX : "")
                + (cache == archlab.redis.CacheKind.REDIS ? REDIS_SUFFIX : "") + changedSettings;
    }

    /** @return how many times {@link #run} runs the load (after overrides) */
    int repetitions() {
        return repetitions;
    }

    /** @return whether {@link #run} records JFR (after overrides) */
    boolean profiled() {
        return profiled;
    }

    public LoadSpec spec() {
        return spec;
    }

    /** @return how the run records its timeline (after overrides) */
    TimelineSettings timeline() {
        return timeline;
    }

    /** @return how long the JIT warm-up loads its scratch fixture, if this JVM is not warm yet (after overrides) */
    Duration jitWarmUpLength() {
        return jitWarmUpLength;
    }

    /**
     * Runs the load {@code repetitions} times, each on a fresh fixture, and writes the report of the last
     * run (with the spread over all runs when there is more than one).
     */
    public Reports run(Supplier<? extends LabFixture> freshFixture) {
        String name = reportName();
        Path jfr = reportsDir.resolve(name + ".jfr");
        Supplier<LabFixture> reached = () -> inTheChosenStore(transport.wrap(freshFixture.get()));
        // a request's trace does not cross the wire: over HTTP the runner would only see one unmarked segment
        LoadSpec spec = transport.kind() == Transport.Kind.HTTP ? this.spec.withTraceEvery(0) : this.spec;
        Optional<LongRun> longForm = longRun.flatMap(l -> LongRun.of(l, module, this.name, name, out));
        try (LongRun.Pending pending = LongRun.pending(longForm, spec, reached)) { // its fixture made first: see LongRun
            Reports reports = runShort(name, jfr, reached, spec);
            pending.run(spec, reports.report(), reportsDir);
            return reports;
        }
    }

    private Reports runShort(String name, Path jfr, Supplier<LabFixture> reached, LoadSpec spec) {
        List<RunReport> reports = new ArrayList<>();
        ProfileReport profile = null;
        WarmUp warmUp = jitWarmUp.before(module + "/" + name, jitWarmUpLength, spec, reached, timeline, out);
        for (int i = 1; i <= repetitions; i++) {
            if (repetitions > 1) {
                out.accept(String.format(Locale.ROOT, "[%s/%s] run %d of %d …", module, name, i, repetitions));
            }
            // closed once its figures are in the report: a fixture with a database drops its schema then
            try (LabFixture fixture = reached.get()) {
                Recording recording = new Recording(profiled, jfr);
                RunResult result = FixtureRun.between(fixture, recording,
                        workload -> new OpenLoopRunner(NanoClock.SYSTEM, timeline).run(spec, workload));
                ProfileSection section = null;
                if (recording.recorded()) {
                    profile = ProfileReport.read(jfr);
                    section = new ProfileSection(List.of(profile.render(10, OpenLoopRunner.class).split("\n")), profile, jfr.toString());
                }
                WarmUp warmed = warmUp;
                if (warmUp != null && warmUp.inThisRun()) {
                    // the first repetition shows the warm-up just before it; later ones were warmed earlier
                    result = result.withTimeline(result.timeline().after(warmUp.timeline(), Interval.JIT_WARMUP));
                    warmUp = warmUp.earlier();
                }
                reports.add(RunReport.builder().module(module).name(name).environment(Environment.current()).run(result)
                        .downstream(fixture.downstreamCounts()).money(fixture.money())
                        .extra(fixture.extra()).profile(section).jitWarmUp(warmed).build());
            }
        }
        RunReport last = reports.get(reports.size() - 1);
        if (reports.size() > 1) {
            last = last.withSpread(Spread.of(reports));
        }
        Path txt = ReportWriter.write(reportsDir, last);
        out.accept(readText(txt));
        out.accept("report: " + txt.toAbsolutePath() + " (+ .json" + (last.run().timeline().recorded() ? ", .hlog" : "")
                + (profiled ? ", .jfr" : "") + ")");
        out.accept("page: " + txt.resolveSibling(last.name() + ".html").toAbsolutePath()
                + " (open it in a browser: timeline, percentiles, segments, flame graphs; works offline)");
        // the report is long: its verdict again, so the console's last screen names the bottleneck
        verdictOf(readText(txt)).forEach(out);
        return new Reports(last, profile, txt, List.copyOf(reports));
    }

    /** @return the report's verdict block (its "--- verdict" heading and the lines under it), or nothing */
    static List<String> verdictOf(String reportText) {
        List<String> lines = reportText.lines().toList();
        int start = 0;
        while (start < lines.size() && !lines.get(start).startsWith("--- verdict")) {
            start++;
        }
        int end = start;
        while (end < lines.size() && !lines.get(end).isBlank()) {
            end++;
        }
        return lines.subList(start, end);
    }

    /**
     * The run's JFR recording, when profiled: from just before the fixture's beforeRun (a fixture that fails to start
     * must not leave it running) to the end of the load, dumped to {@code jfr}.
     */
    private static final class Recording implements FixtureRun.Around {
        private final boolean profiled;
        private final Path jfr;
        private JfrRecorder recorder;

        Recording(boolean profiled, Path jfr) {
            this.profiled = profiled;
            this.jfr = jfr;
        }

        @Override
        public void starting() {
            recorder = profiled ? JfrRecorder.start(ProfileSettings.defaults()) : null;
        }

        @Override
        public void loaded() {
            if (recorder != null) {
                try {
                    recorder.stopAndDump(jfr);
                } finally {
                    recorder.close();
                }
            }
        }

        @Override
        public void failed(Throwable failure) {
            if (recorder != null) {
                // keep the recording for a look at the failure, but never hide the failure behind a dump error
                try {
                    recorder.stopAndDump(jfr);
                } catch (RuntimeException dumpFailed) {
                    failure.addSuppressed(dumpFailed);
                } finally {
                    recorder.close();
                }
            }
        }

        /** @return whether a recording was made (and dumped) */
        boolean recorded() {
            return recorder != null;
        }
    }

    /**
     * @return {@code fixture}, when it keeps its orders where {@code -Dlab.store} asked: a fixture on PostgreSQL reports a
     *         {@value LabStore#REPORT_LINE} line; one that does not (a checkpoint without a PostgreSQL store) is closed and
     *         refused, so that {@code lab.store=postgres} never runs the load in memory in silence
     */
    private LabFixture inTheChosenStore(LabFixture fixture) {
        if (store == archlab.db.StoreKind.POSTGRES
                && fixture.extra().stream().noneMatch(l -> l.name().equals(LabStore.REPORT_LINE))) {
            fixture.close();
            throw new IllegalArgumentException("lab.store=postgres: " + module + " keeps its orders in memory (its fixture"
                    + " reports no " + LabStore.REPORT_LINE + " line): it has no PostgreSQL store yet; run it without -Dlab.store");
        }
        if (cache == archlab.redis.CacheKind.REDIS
                && fixture.extra().stream().noneMatch(l -> l.name().equals(LabCache.REPORT_LINE))) {
            fixture.close();
            throw new IllegalArgumentException("lab.cache=redis: " + module + " has no second-level cache (its fixture reports"
                    + " no " + LabCache.REPORT_LINE + " line); run it without -Dlab.cache");
        }
        return fixture;
    }

    private static String readText(Path txt) {
        try {
            return java.nio.file.Files.readString(txt).stripTrailing();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read the report just written: " + txt, e);
        }
    }
}
