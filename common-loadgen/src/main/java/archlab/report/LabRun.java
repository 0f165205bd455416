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

    /**
     * Applies {@code lab.*} overrides from {@code p}; a bad value throws IllegalArgumentException naming the key.
     * All or nothing: every value is checked first, and only when all are good are they applied, so a bad
     * value leaves this LabRun exactly as it was.
     */
    public LabRun withOverrides(Properties p) {
        LoadSpec s = spec;
        int newRepetitions = repetitions;
        boolean newProfiled = profiled;
        String v;
        if ((v = p.getProperty("lab.rate")) != null) {
            int rate = parseInt("lab.rate", v);
            s = checked("lab.rate", v, s, x -> x.withRate(rate));
        }
        if ((v = p.getProperty("lab.duration")) != null) {
            Duration d = parseDuration("lab.duration", v);
            s = checked("lab.duration", v, s, x -> x.withDuration(d));
        }
        if ((v = p.getProperty("lab.timeout")) != null) {
            Duration d = parseDuration("lab.timeout", v);
            s = checked("lab.timeout", v, s, x -> x.withTimeout(d));
        }
        if ((v = p.getProperty("lab.warmup")) != null) {
            Duration d = parseDuration("lab.warmup", v);
            s = checked("lab.warmup", v, s, x -> x.withWarmup(d));
        }
        if ((v = p.getProperty("lab.trace")) != null) {
            int n = parseInt("lab.trace", v);
            s = checked("lab.trace", v, s, x -> x.withTraceEvery(n));
        }
        if ((v = p.getProperty("lab.threads")) != null) {
            ThreadKind kind;
            try {
                kind = ThreadKind.valueOf(v.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("lab.threads must be platform or virtual, was '" + v + "'");
            }
            s = s.withThreads(kind);
        }
        if ((v = p.getProperty("lab.arrival")) != null) {
            String a = v.trim().toLowerCase(Locale.ROOT);
            if (a.equals("fixed")) {
                s = s.withArrival(Arrival.fixed());
            } else if (a.equals("poisson")) {
                s = s.withArrival(Arrival.poisson(1L));
            } else if (a.startsWith("poisson:")) {
                s = s.withArrival(Arrival.poisson(parseLong("lab.arrival", a.substring("poisson:".length()))));
            } else {
                throw new IllegalArgumentException("lab.arrival must be fixed or poisson[:SEED], was '" + v + "'");
            }
        }
        if ((v = p.getProperty("lab.repeat")) != null) {
            newRepetitions = parseInt("lab.repeat", v);
            if (newRepetitions < 1) {
                throw new IllegalArgumentException("lab.repeat must be at least 1, was '" + v + "'");
            }
        }
        if ((v = p.getProperty("lab.profile")) != null) {
            String b = v.trim().toLowerCase(Locale.ROOT);
            if (!b.equals("true") && !b.equals("false")) {
                throw new IllegalArgumentException("lab.profile must be true or false, was '" + v + "'");
            }
            newProfiled = b.equals("true");
        }
        // every value is good: apply them together
        spec = s;
        repetitions = newRepetitions;
        profiled = newProfiled;
        return this;
    }

    /** Applies one override, turning LoadSpec's own refusal (rate 0, negative timeout…) into a message naming the key. */
    private static LoadSpec checked(String key, String value, LoadSpec s, java.util.function.UnaryOperator<LoadSpec> change) {
        try {
            return change.apply(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + "='" + value + "' is not a valid load: " + e.getMessage(), e);
        }
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
            try {
                // inside the try: a fixture that fails to start must not leave a JFR recording running
                fixture.beforeRun();
                result = new OpenLoopRunner().run(spec, fixture.workload());
            } catch (RuntimeException | Error e) {
                if (recorder != null) {
                    // keep the recording for a look at the failure, but never hide the failure behind a dump error
                    try {
                        recorder.stopAndDump(jfr);
                    } catch (RuntimeException dumpFailed) {
                        e.addSuppressed(dumpFailed);
                    } finally {
                        recorder.close();
                    }
                }
                throw e;
            }
            if (recorder != null) {
                try {
                    recorder.stopAndDump(jfr);
                } finally {
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

    /** A plain decimal amount: {@code 3}, {@code 1.5}, {@code .5}; no sign, exponent, hex or {@code d}/{@code f} suffix. */
    private static final java.util.regex.Pattern AMOUNT = java.util.regex.Pattern.compile("\\d*\\.?\\d+");

    /** Accepts {@code 3s}, {@code 200ms}, {@code 1.5s}, {@code 2m} or ISO-8601 {@code PT3S}. */
    static Duration parseDuration(String key, String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            if (t.endsWith("ms")) {
                return Duration.ofNanos(Math.round(amount(t, 2) * 1_000_000L));
            }
            if (t.endsWith("s")) {
                return Duration.ofNanos(Math.round(amount(t, 1) * 1_000_000_000L));
            }
            if (t.endsWith("m")) {
                return Duration.ofNanos(Math.round(amount(t, 1) * 60_000_000_000L));
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(key + " must be a duration such as 3s, 200ms or PT3S, was '" + v + "'");
    }

    /** The number before a unit suffix of {@code suffixLength} characters. */
    private static double amount(String t, int suffixLength) {
        String number = t.substring(0, t.length() - suffixLength).trim();
        if (!AMOUNT.matcher(number).matches()) {
            throw new NumberFormatException(number);
        }
        return Double.parseDouble(number);
    }
}
