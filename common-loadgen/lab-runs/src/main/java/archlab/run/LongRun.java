package archlab.run;

import archlab.clock.NanoClock;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.report.ReportLine;
import archlab.report.ReportWriter;
import archlab.report.RunReport;
import archlab.timeline.RunTimeline;
import archlab.timeline.TimelineSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The long form of a load run ({@code -Dlong}): after the short run, the same load on a fresh fixture in the same JVM
 * for the article's three windows ({@link LongRunSettings}: warm-up, measured, stability), each reported apart, and the
 * short run's figures beside the measured window's ({@link LongRunReport}). The report is written as
 * {@code <name>-long.txt} and {@code .json} beside the short run's.
 *
 * <p>The long run records no JFR (minutes of it would be hundreds of megabytes, and the short run has the profile); its
 * GC pauses and writes come from {@link ProcessMeter}, sampled every {@value ProcessMeter#PERIOD_MILLIS} ms, and count
 * inside a window from the sample before its start to the sample before its end.
 *
 * <p>Thread-safety: used by one thread.
 */
public final class LongRun {

    /** The long run's timeline: 100 ms intervals, which every window and slice must fill whole. */
    static final TimelineSettings TIMELINE = TimelineSettings.DEFAULT;

    private final LongRunSettings settings;
    private final String module;
    private final String name;
    private final Consumer<String> out;

    /**
     * @param settings the windows
     * @param module   the module's artifact id
     * @param name     the short run's report name; the long one is {@code <name>-long}
     * @param out      where progress and the report's text go
     */
    public LongRun(LongRunSettings settings, String module, String name, Consumer<String> out) {
        this.settings = settings;
        this.module = module;
        this.name = name;
        this.out = out;
    }

    /**
     * @param runName    the run's name as the module calls it ({@code baseline}): what {@code -Dlong=…} names
     * @param reportName its report's name ({@code baseline-postgres}): the long one is {@code <reportName>-long}
     * @return the long form of that run, when {@code settings} cover it; else empty, saying so when {@code -Dlong=…} named
     *         other runs
     */
    public static Optional<LongRun> of(LongRunSettings settings, String module, String runName, String reportName,
            Consumer<String> out) {
        if (!settings.covers(runName)) {
            out.accept("[lab] -Dlong=" + String.join(",", new java.util.TreeSet<>(settings.runs())) + ": " + module + "/"
                    + runName + " is not among the runs named, so it runs short only");
            return Optional.empty();
        }
        return Optional.of(new LongRun(settings, module, reportName, out));
    }

    /**
     * The long run's fixture, made before the short run, run after it. The trap it avoids: a test keeps the last
     * fixture its supplier made (its {@code lab} field) and asserts on it; made after the short run, the long run's
     * fixture would take that place. The price: it waits, built and idle (with its background threads, a relay's poll,
     * its pool), while the short run runs; the long report says so.
     */
    public static final class Pending implements AutoCloseable {
        private final LongRun run;
        private LabFixture fixture;

        private Pending(LongRun run, LabFixture fixture) {
            this.run = run;
            this.fixture = fixture;
        }

        /** Runs the long form now, if there is one; its fixture is closed by the run. */
        public void run(LoadSpec shortSpec, RunReport shortRun, Path reportsDir) {
            if (fixture != null) {
                LabFixture f = fixture;
                fixture = null;
                run.run(f, shortSpec, shortRun, reportsDir);
            }
        }

        /** Closes the fixture when the long form never ran (the short run failed). */
        @Override
        public void close() {
            if (fixture != null) {
                fixture.close();
                fixture = null;
            }
        }
    }

    /**
     * @return the long run's fixture, made now from {@code fresh}, waiting for the short run to end; nothing when there is
     *         no long form
     * @throws IllegalArgumentException before any fixture is made, when the windows cannot be cut from the run's 100 ms
     *                                  intervals or the load would plan too many requests
     */
    public static Pending pending(Optional<LongRun> longForm, LoadSpec shortSpec, java.util.function.Supplier<LabFixture> fresh) {
        if (longForm.isEmpty()) {
            return new Pending(null, null);
        }
        LongRun l = longForm.get();
        l.spec(shortSpec); // refused here, before the short run, rather than after it
        return new Pending(l, fresh.get());
    }

    /** @return the long run's load: the short run's, with the long run's warm-up and its measured + stability windows */
    LoadSpec spec(LoadSpec shortSpec) {
        long interval = TIMELINE.interval().toMillis();
        for (java.time.Duration d : List.of(shortSpec.duration(), settings.measured(), settings.stability(), settings.warmup())) {
            if (d.toMillis() % interval != 0 || d.toNanos() % 1_000_000 != 0) {
                throw new IllegalArgumentException("-Dlong: the short run's duration and the long run's windows must be whole"
                        + " multiples of " + interval + " ms (the long run's timeline), and " + d + " is not");
            }
        }
        try {
            return shortSpec.withWarmup(settings.warmup()).withDuration(settings.loaded());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-Dlong: the long run's load is not valid: " + e.getMessage(), e);
        }
    }

    /**
     * Runs the long form of {@code shortSpec} on a fresh fixture and writes its report.
     *
     * @param fixture    a fresh fixture, reached as the short run's was (transport, store); closed by this run
     * @param shortSpec  the short run's load; the long run keeps everything but its warm-up and duration
     * @param shortRun   the short run's report (its latency goes beside the measured window's)
     * @param reportsDir where the short run's report was written
     * @return the long run's report
     */
    public LongRunReport run(LabFixture fixture, LoadSpec shortSpec, RunReport shortRun, Path reportsDir) {
        RunResult result;
        List<ProcessMeter.Sample> samples;
        Map<String, String> extra = new LinkedHashMap<>();
        try (fixture; ProcessMeter meter = new ProcessMeter()) {
            LoadSpec spec = spec(shortSpec);
            out.accept(LongRunReport.format("[%s/%s] the long run: %s s of warm-up, %s s measured, %s s for stability (-Dlong) …",
                    module, name, LongRunText.seconds(settings.warmup().toMillis() / 1e3),
                    LongRunText.seconds(settings.measured().toMillis() / 1e3),
                    LongRunText.seconds(settings.stability().toMillis() / 1e3)));
            meter.start();
            result = FixtureRun.between(fixture, new FixtureRun.Around() { },
                    workload -> new OpenLoopRunner(NanoClock.SYSTEM, TIMELINE).run(spec, workload));
            samples = meter.stop();
            extra.put("long_run_fixture", "built before the short run, idle while it ran");
            for (ReportLine line : fixture.extra()) {
                extra.put(line.name(), String.valueOf(line.value()));
            }
        }
        LongRunReport report = report(new LongRunReport.Run(module, name, shortSpec.ratePerSecond(),
                shortSpec.timeout().toMillis(), archlab.report.Environment.current()), result.timeline(), samples, shortRun, extra);
        write(reportsDir, name, report, out);
        return report;
    }

    LongRunReport report(LongRunReport.Run run, RunTimeline t, List<ProcessMeter.Sample> samples, RunReport shortRun,
            Map<String, String> extra) {
        double sliceMillis = shortRun.run().spec().duration().toNanos() / 1e6;
        LongRunReport.Cut cut = LongRunReport.cut(t, settings.measured().toNanos() / 1e6, sliceMillis);
        List<LongRunReport.Window> windows = new ArrayList<>();
        for (LongRunReport.Part p : cut.parts()) {
            long from = t.originNanos() + (long) (p.fromMillis() * 1e6);
            long to = t.originNanos() + (long) (p.toMillis() * 1e6);
            windows.add(new LongRunReport.Window(p.name(), (p.toMillis() - p.fromMillis()) / 1_000.0, p.timedOut(), p.latency(),
                    p.hiccupMaxMicros(), ProcessMeter.at(samples, to).since(ProcessMeter.at(samples, from))));
        }
        return new LongRunReport(run, settings, windows, cut.slices(),
                LongRunReport.Latency.of(shortRun.run().latency()), extra);
    }

    /** Writes {@code <name>-long.txt} and {@code .json} under {@code reportsDir} and prints the text to {@code out}. */
    public static void write(Path reportsDir, String name, LongRunReport report, Consumer<String> out) {
        Path txt = reportsDir.resolve(name + "-long.txt");
        try {
            Files.createDirectories(reportsDir);
            Files.writeString(txt, report.text(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the long run's report " + txt, e);
        }
        ReportWriter.writeJson(reportsDir.resolve(name + "-long.json"), report);
        out.accept(report.text().stripTrailing());
        out.accept("long report: " + txt.toAbsolutePath() + " (+ .json)");
    }
}
