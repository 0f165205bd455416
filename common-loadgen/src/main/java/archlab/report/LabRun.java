package archlab.report;

import archlab.loadgen.Arrival;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.loadgen.ThreadKind;
import archlab.profile.JfrRecorder;
import archlab.profile.ProfileReport;
import archlab.profile.ProfileSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One named load run of one module, end to end: build a fresh fixture, record JFR around the run
 * (optional), run the open-loop load, let the fixture settle, read the profiles back, and write the
 * report (text first, JSON beside it, the {@code .jfr} beside both) under the module's
 * {@code target/reports/}. Every chapter module calls this with the same load, so their reports compare.
 *
 * <p>Readers may change the load from the command line without touching code; every value is checked
 * and a bad one stops the run with a message naming the property:
 * {@code -Dlab.rate=1500 -Dlab.duration=3s -Dlab.timeout=200ms -Dlab.threads=platform|virtual
 * -Dlab.arrival=fixed|poisson:SEED -Dlab.warmup=0s -Dlab.trace=1 -Dlab.repeat=1 -Dlab.profile=true}.
 *
 * <p>Thread-safety: a LabRun is used by one thread.
 */
public final class LabRun {

    /** What a run returns: the report (of the last repetition, with the spread), its profile, where it was written. */
    public record Outcome(RunReport report, ProfileReport profile, Path textFile, List<RunReport> repetitions) {
        public RunResult run() {
            return report.run();
        }
    }

    private final String module;
    private final String name;
    private LoadSpec spec = LoadSpec.book();
    private boolean profiled = true;
    private int repetitions = 1;
    private Path reportsDir = ReportWriter.reportsDir();
    private Consumer<String> out = System.out::println;

    private LabRun(String module, String name) {
        this.module = module;
        this.name = name;
    }

    /** @param module the module's artifact id; @param name the report's name (file name) */
    public static LabRun named(String module, String name) {
        if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("report name must be letters, digits, '.', '_' or '-', was " + name);
        }
        return new LabRun(module, name);
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

    public LabRun reportsDir(Path dir) {
        this.reportsDir = dir;
        return this;
    }

    public LabRun output(Consumer<String> sink) {
        this.out = sink;
        return this;
    }

    /** Applies the reader's {@code -Dlab.*} overrides from the system properties. */
    public LabRun withOverrides() {
        return withOverrides(System.getProperties());
    }

    /** Applies {@code lab.*} overrides from {@code p}; a bad value throws IllegalArgumentException naming the key. */
    public LabRun withOverrides(Properties p) {
        LoadSpec s = spec;
        String v;
        if ((v = p.getProperty("lab.rate")) != null) {
            s = s.withRate(parseInt("lab.rate", v));
        }
        if ((v = p.getProperty("lab.duration")) != null) {
            s = s.withDuration(parseDuration("lab.duration", v));
        }
        if ((v = p.getProperty("lab.timeout")) != null) {
            s = s.withTimeout(parseDuration("lab.timeout", v));
        }
        if ((v = p.getProperty("lab.warmup")) != null) {
            s = s.withWarmup(parseDuration("lab.warmup", v));
        }
        if ((v = p.getProperty("lab.trace")) != null) {
            s = s.withTraceEvery(parseInt("lab.trace", v));
        }
        if ((v = p.getProperty("lab.threads")) != null) {
            try {
                s = s.withThreads(ThreadKind.valueOf(v.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("lab.threads must be platform or virtual, was '" + v + "'");
            }
        }
        if ((v = p.getProperty("lab.arrival")) != null) {
            String a = v.trim().toLowerCase(Locale.ROOT);
            if (a.equals("fixed")) {
                s = s.withArrival(Arrival.fixed());
            } else if (a.startsWith("poisson")) {
                long seed = a.contains(":") ? parseLong("lab.arrival", a.substring(a.indexOf(':') + 1)) : 1L;
                s = s.withArrival(Arrival.poisson(seed));
            } else {
                throw new IllegalArgumentException("lab.arrival must be fixed or poisson[:SEED], was '" + v + "'");
            }
        }
        if ((v = p.getProperty("lab.repeat")) != null) {
            repetitions(parseInt("lab.repeat", v));
        }
        if ((v = p.getProperty("lab.profile")) != null) {
            String b = v.trim().toLowerCase(Locale.ROOT);
            if (!b.equals("true") && !b.equals("false")) {
                throw new IllegalArgumentException("lab.profile must be true or false, was '" + v + "'");
            }
            profiled = b.equals("true");
        }
        spec = s;
        return this;
    }

    public LoadSpec spec() {
        return spec;
    }

    /**
     * Runs the load {@code repetitions} times, each on a fresh fixture, and writes the report of the last
     * run (with the spread over all runs when there is more than one).
     */
    public Outcome run(Supplier<? extends LabFixture> freshFixture) {
        List<RunReport> reports = new ArrayList<>();
        ProfileReport profile = null;
        Path jfr = reportsDir.resolve(name + ".jfr");
        for (int i = 1; i <= repetitions; i++) {
            if (repetitions > 1) {
                out.accept(String.format(Locale.ROOT, "[%s/%s] run %d of %d …", module, name, i, repetitions));
            }
            LabFixture fixture = freshFixture.get();
            JfrRecorder recorder = profiled ? JfrRecorder.start(ProfileSettings.defaults()) : null;
            RunResult result;
            fixture.beforeRun();
            try {
                result = new OpenLoopRunner().run(spec, fixture.workload());
            } finally {
                if (recorder != null) {
                    recorder.stopAndDump(jfr);
                    recorder.close();
                }
            }
            fixture.afterRun();
            ProfileSection section = null;
            if (recorder != null) {
                profile = ProfileReport.read(jfr);
                section = new ProfileSection(List.of(profile.render(10).split("\n")), profile, jfr.toString());
            }
            reports.add(new RunReport(module, name, Environment.current(), result, fixture.downstreamCounts(),
                    fixture.money(), fixture.extra(), section, null));
        }
        RunReport last = reports.get(reports.size() - 1);
        if (reports.size() > 1) {
            last = last.withSpread(Spread.of(reports));
        }
        Path txt = ReportWriter.write(reportsDir, last);
        out.accept(last.text());
        out.accept("report: " + txt.toAbsolutePath() + " (+ .json" + (profiled ? ", .jfr" : "") + ")");
        return new Outcome(last, profile, txt, List.copyOf(reports));
    }

    private static int parseInt(String key, String v) {
        try {
            return Integer.parseInt(v.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, was '" + v + "'");
        }
    }

    private static long parseLong(String key, String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " needs a whole-number seed, was '" + v + "'");
        }
    }

    /** Accepts {@code 3s}, {@code 200ms}, {@code 1.5s}, {@code 2m} or ISO-8601 {@code PT3S}. */
    static Duration parseDuration(String key, String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            if (t.endsWith("ms")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(t.substring(0, t.length() - 2)) * 1_000_000L));
            }
            if (t.endsWith("s")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1_000_000_000L));
            }
            if (t.endsWith("m")) {
                return Duration.ofSeconds(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 60));
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(key + " must be a duration such as 3s, 200ms or PT3S, was '" + v + "'");
    }
}
