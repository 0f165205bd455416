package archlab.figures;

import archlab.profile.FlameGraphs;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Every figure of the chapter, from the reports the runs saved: {@code Figures <resultsDir> <figuresDir>}.
 * It looks through {@code resultsDir} (a module's {@code target/reports}, or the project root to take every
 * module's), renders every chart it finds inputs for, prints each file it wrote, and says what it skipped and
 * why; a missing or broken input never stops the others.
 *
 * <table>
 *   <caption>inputs and figures</caption>
 *   <tr><th>input</th><th>figure</th></tr>
 *   <tr><td>run reports ({@code <name>.json} with a latency histogram)</td>
 *       <td>{@code percentiles-<name>.png}: one line per checkpoint that ran {@code <name>};
 *           {@code percentiles-<module>-<name>-by-op.png}: create / get / pay of one run</td></tr>
 *   <tr><td>run reports with a timeline ({@code run.timeline.intervals})</td>
 *       <td>{@code timeline-<module>-<name>.png}: goodput, p99 and the machine's hiccups per interval, warm-ups and
 *           the scenario's windows shaded</td></tr>
 *   <tr><td>capacity sweeps ({@code sweep-<module>.json})</td><td>{@code sweep.png}: throughput and p99 against offered rate</td></tr>
 *   <tr><td>the scenario table ({@code scenarios.json})</td><td>{@code scenarios.png}: goodput and money lost per scenario × checkpoint</td></tr>
 *   <tr><td>JFR recordings ({@code <run>.jfr})</td><td>{@code flame-<module>-<run>-cpu.html}, {@code -alloc.html}, {@code -lock.html}, and beside each
 *       its picture for the printed page, {@code .png} ({@link FlameGraphImage})</td></tr>
 * </table>
 *
 * <p>Rendering is headless ({@code java.awt.headless=true}). Thread-safety: {@link #run} keeps no state
 * between calls; one call renders its figures one after another.
 */
public final class Figures {

    /** How deep below {@code resultsDir} inputs are looked for (root → module → target → reports → file). */
    private static final int MAX_DEPTH = 6;

    private static final ObjectMapper JSON = new ObjectMapper();

    private Figures() {
    }

    /** {@code Figures <resultsDir> <figuresDir>}; exits with 2 on bad arguments. */
    public static void main(String[] args) {
        ChartImages.headless();
        if (args.length != 2) {
            System.err.println("usage: Figures <resultsDir> <figuresDir>   e.g. Figures . target/figures");
            System.exit(2);
        }
        try {
            run(Path.of(args[0]), Path.of(args[1]), System.out::println);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Renders every figure it finds inputs for.
     *
     * @param resultsDir where to look (recursively, {@value #MAX_DEPTH} levels)
     * @param figuresDir where to write (created if missing); files under it are never taken as inputs
     * @param out        one line per file written, per input skipped and per figure that failed
     * @return the files written
     * @throws IllegalArgumentException if {@code resultsDir} is not a directory
     */
    public static List<Path> run(Path resultsDir, Path figuresDir, Consumer<String> out) {
        return run(resultsDir, figuresDir, out, name -> true);
    }

    /**
     * Renders the figures it finds inputs for whose file names {@code wanted} accepts (the book's refresh passes the
     * names its pages link to, so that no file is drawn that nobody reads); the others are not drawn, and listed.
     *
     * @see #run(Path, Path, Consumer)
     */
    public static List<Path> run(Path resultsDir, Path figuresDir, Consumer<String> log, Predicate<String> wanted) {
        ChartImages.headless();
        List<String> unwanted = new ArrayList<>();
        Consumer<String> out = line -> {
            if (line.startsWith("unwanted ")) {
                unwanted.add(line.substring("unwanted ".length()));
            } else {
                log.accept(line);
            }
        };
        if (!Files.isDirectory(resultsDir)) {
            throw new IllegalArgumentException("results directory " + resultsDir.toAbsolutePath() + " does not exist");
        }
        Inputs in = Inputs.scan(resultsDir, figuresDir);
        in.dropDuplicates(out);
        List<Path> written = new ArrayList<>();
        if (!in.ignored.isEmpty()) {
            out.accept("skipped " + in.ignored.size() + " JSON file(s) that are not lab reports: " + names(in.ignored));
        }

        if (in.runReports.isEmpty()) {
            out.accept("skipped percentile charts: no run report (<name>.json with run.latency.hdrBase64) under "
                    + resultsDir + " (make one with: mvn -pl ch12-1-baseline test -Dbaseline)");
        }
        Map<String, List<Path>> byName = new LinkedHashMap<>();
        in.runReports.forEach((file, report) -> byName.computeIfAbsent(report.name(), k -> new ArrayList<>()).add(file));
        byName.forEach((name, files) -> attempt(out, written, wanted, "percentile chart of " + name,
                figuresDir.resolve("percentiles-" + fileSafe(name) + ".png"), png -> PercentileChart.renderReports(files, png)));
        // per-operation charts that a page puts side by side share their latency scale (PercentileChart.sharedTops)
        Map<Path, Double> tops = PercentileChart.sharedTops(in.runReports.keySet());
        in.runReports.forEach((file, report) -> attempt(out, written, wanted, "per-operation chart of " + file,
                figuresDir.resolve("percentiles-" + fileSafe(report.module()) + "-" + fileSafe(report.name()) + "-by-op.png"),
                png -> PercentileChart.renderOperations(file, png, tops.get(file))));

        if (in.timelines.isEmpty()) {
            out.accept("skipped timelines: no run report with a timeline (run.timeline.intervals) under " + resultsDir
                    + " (every load run records one: mvn -pl ch12-1-baseline test -Dbaseline)");
        }
        in.timelines.forEach(file -> attempt(out, written, wanted, "timeline of " + file,
                figuresDir.resolve(TimelineChart.fileName(in.runReports.get(file).module(), in.runReports.get(file).name())),
                png -> TimelineChart.render(file, png)));

        if (in.sweeps.isEmpty()) {
            out.accept("skipped sweep chart: no capacity sweep (sweep-<module>.json) under " + resultsDir
                    + " (make one with: mvn -pl ch12-1-baseline test -Dsweep -Dtest=CapacitySweepTest"
                    + " -Dsurefire.failIfNoSpecifiedTests=false)");
        } else {
            List<Path> sweeps = in.latestSweepPerModule(out);
            attempt(out, written, wanted, "sweep chart", figuresDir.resolve("sweep.png"), png -> SweepChart.render(sweeps, png));
        }

        if (in.scenarioTables.isEmpty()) {
            out.accept("skipped scenario chart: no scenarios.json under " + resultsDir
                    + " (make it with: mvn test -Dscenarios)");
        } else {
            Path table = in.largestScenarioTable(out);
            attempt(out, written, wanted, "scenario chart", figuresDir.resolve("scenarios.png"), png -> ScenarioChart.render(table, png));
        }

        if (in.recordings.isEmpty()) {
            out.accept("skipped flame graphs: no .jfr under " + resultsDir + " (profiled runs write one: -Dbaseline)");
        }
        for (Path jfr : in.recordings) {
            String run = jfr.getFileName().toString().replaceFirst("\\.jfr$", "");
            String module = in.moduleOf(jfr);
            try {
                String prefix = "flame-" + fileSafe(module) + "-" + fileSafe(run);
                if (FlameGraphs.KINDS.stream().noneMatch(kind -> wanted.test(prefix + "-" + kind + ".html"))) {
                    out.accept("unwanted " + prefix + "-*.html");
                    continue;
                }
                List<Path> files = FlameGraphs.render(jfr, figuresDir, prefix, module + " / " + run,
                        kind -> wanted.test(prefix + "-" + kind + ".html"));
                files.forEach(f -> out.accept("wrote " + f));
                if (wanted.test(prefix + "-lock.html")
                        && files.stream().noneMatch(f -> f.getFileName().toString().endsWith("-lock.html"))) {
                    out.accept("skipped lock flame graph of " + jfr + ": the recording holds no lock wait");
                }
                written.addAll(files);
            } catch (RuntimeException e) {
                out.accept("failed flame graphs of " + jfr + ": " + e);
            }
        }
        // each flame graph's picture for the printed page, drawn from its HTML (written above, or by an earlier run)
        for (Path html : flameGraphPages(figuresDir)) {
            String png = html.getFileName().toString().replaceFirst("\\.html$", ".png");
            attempt(out, written, wanted, "flame graph picture of " + html.getFileName(), figuresDir.resolve(png),
                    file -> FlameGraphImage.render(html, file));
        }
        if (!unwanted.isEmpty()) {
            log.accept("not drawn, no page links to them: " + String.join(", ", unwanted));
        }
        return List.copyOf(written);
    }

    /** The flame graphs ({@code flame-*.html}) in {@code figuresDir}, by name; none when it does not exist. */
    private static List<Path> flameGraphPages(Path figuresDir) {
        if (!Files.isDirectory(figuresDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(figuresDir)) {
            return files.filter(f -> f.getFileName().toString().matches("flame-.*\\.html")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + figuresDir, e);
        }
    }

    private interface Figure {
        Path render(Path png);
    }

    private static void attempt(Consumer<String> out, List<Path> written, Predicate<String> wanted, String what, Path png,
                                Figure figure) {
        if (!wanted.test(png.getFileName().toString())) {
            out.accept("unwanted " + png.getFileName());
            return;
        }
        try {
            Path p = figure.render(png);
            written.add(p);
            out.accept("wrote " + p);
        } catch (RuntimeException e) {
            out.accept("failed " + what + ": " + e.getMessage());
        }
    }

    /** @return {@code s} with anything but letters, digits, '.', '_' and '-' replaced by '_' */
    static String fileSafe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static String names(List<Path> files) {
        List<String> n = files.stream().map(p -> p.getFileName().toString()).limit(8).toList();
        return String.join(", ", n) + (files.size() > n.size() ? ", …" : "");
    }

    /** What {@link #scan} found, by kind. */
    private static final class Inputs {
        final Map<Path, SavedRunReport> runReports = new LinkedHashMap<>();
        /** The run reports that recorded a timeline. */
        final List<Path> timelines = new ArrayList<>();
        final List<SavedSweep> sweeps = new ArrayList<>();
        final Map<Path, Integer> scenarioTables = new LinkedHashMap<>();
        final List<Path> recordings = new ArrayList<>();
        final List<Path> ignored = new ArrayList<>();

        /**
         * The folders whose runs are never a figure's input: an exercise's runs (changed code, or another load) and the
         * repeated runs' copies would otherwise pass for the book's own runs of the same name, the newest file winning.
         */
        static final java.util.Set<String> SIDE_RUNS = java.util.Set.of("exercises", "repeats");

        static boolean underSideRuns(Path root, Path file) {
            for (Path part : root.relativize(file)) {
                if (SIDE_RUNS.contains(part.toString())) {
                    return true;
                }
            }
            return false;
        }

        static Inputs scan(Path root, Path figuresDir) {
            Inputs in = new Inputs();
            Path exclude = figuresDir.toAbsolutePath().normalize();
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root, MAX_DEPTH)) {
                files = walk.filter(Files::isRegularFile)
                        .filter(p -> !p.toAbsolutePath().normalize().startsWith(exclude))
                        .filter(p -> !underSideRuns(root, p))
                        .filter(p -> p.getFileName().toString().endsWith(".json") || p.getFileName().toString().endsWith(".jfr"))
                        .sorted().toList();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot look through " + root, e);
            }
            for (Path f : files) {
                if (f.getFileName().toString().endsWith(".jfr")) {
                    in.recordings.add(f);
                    continue;
                }
                try {
                    JsonNode root0 = JSON.readTree(f.toFile());
                    if (root0 == null) {
                        in.ignored.add(f);
                    } else if (SavedRunReport.accepts(root0)) {
                        in.runReports.put(f, SavedRunReport.of(f, root0));
                        if (SavedTimeline.accepts(root0)) {
                            in.timelines.add(f);
                        }
                    } else if (SavedSweep.accepts(root0)) {
                        in.sweeps.add(SavedSweep.of(f, root0));
                    } else if (ScenarioChart.accepts(root0)) {
                        in.scenarioTables.put(f, root0.size());
                    } else {
                        in.ignored.add(f);
                    }
                } catch (IOException | RuntimeException e) {
                    in.ignored.add(f);
                }
            }
            return in;
        }

        /**
         * Keeps one run report per (module, name) and one recording per (module, run): the most recently written.
         * The same run can be found twice, e.g. in a module's {@code target/reports} and in a copy of it.
         */
        void dropDuplicates(Consumer<String> out) {
            Map<String, Path> reports = new LinkedHashMap<>();
            for (Map.Entry<Path, SavedRunReport> e : runReports.entrySet()) {
                reports.merge(e.getValue().module() + "/" + e.getValue().name(), e.getKey(), (a, b) -> newer(a, b, out));
            }
            runReports.keySet().retainAll(reports.values());
            timelines.retainAll(reports.values());
            Map<String, Path> jfrs = new LinkedHashMap<>();
            for (Path jfr : recordings) {
                jfrs.merge(moduleOf(jfr) + "/" + jfr.getFileName(), jfr, (a, b) -> newer(a, b, out));
            }
            recordings.retainAll(jfrs.values());
        }

        private static Path newer(Path a, Path b, Consumer<String> out) {
            Path keep = modified(b) > modified(a) ? b : a;
            Path drop = keep == a ? b : a;
            out.accept("skipped " + drop + ": same run as the newer " + keep);
            return keep;
        }

        /**
         * One sweep per (module, name), the most recently written, so each checkpoint's sweep is one line (a
         * checkpoint swept twice, e.g. with its limiter lifted and in place, is two lines).
         */
        List<Path> latestSweepPerModule(Consumer<String> out) {
            Map<String, SavedSweep> latest = new LinkedHashMap<>();
            for (SavedSweep s : sweeps) {
                String key = s.module() + "/" + s.name();
                SavedSweep prev = latest.get(key);
                if (prev == null || modified(s.file()) > modified(prev.file())) {
                    if (prev != null) {
                        out.accept("skipped older sweep " + key + ": " + prev.file());
                    }
                    latest.put(key, s);
                } else {
                    out.accept("skipped older sweep " + key + ": " + s.file());
                }
            }
            return latest.values().stream().map(SavedSweep::file).toList();
        }

        /** The scenario table with the most rows (a root table holds every checkpoint's); ties: the shortest path. */
        Path largestScenarioTable(Consumer<String> out) {
            Path best = scenarioTables.keySet().stream()
                    .max(Comparator.<Path>comparingInt(scenarioTables::get)
                            .thenComparing(p -> -p.getNameCount()))
                    .orElseThrow();
            scenarioTables.keySet().stream().filter(p -> !p.equals(best))
                    .forEach(p -> out.accept("skipped scenario table " + p + " (" + scenarioTables.get(p)
                            + " rows): " + best + " has " + scenarioTables.get(best)));
            return best;
        }

        /**
         * The module a recording belongs to: its run report's, else the folder above {@code target}
         * ({@code <module>/target/reports/x.jfr}), else the folder holding it ({@code results/<module>/x.jfr}).
         */
        String moduleOf(Path jfr) {
            Path json = jfr.resolveSibling(jfr.getFileName().toString().replaceFirst("\\.jfr$", ".json"));
            SavedRunReport r = runReports.get(json);
            if (r != null) {
                return r.module();
            }
            Path abs = jfr.toAbsolutePath().normalize();
            for (Path p = abs.getParent(); p != null && p.getParent() != null; p = p.getParent()) {
                if (p.getFileName().toString().equals("target")) {
                    return p.getParent().getFileName().toString();
                }
            }
            Path parent = abs.getParent();
            return parent == null || parent.getFileName() == null ? "unknown-module" : parent.getFileName().toString();
        }

        private static long modified(Path p) {
            try {
                return Files.getLastModifiedTime(p).toMillis();
            } catch (IOException e) {
                return 0;
            }
        }
    }
}
