package archlab.ladder;

import archlab.db.ladder.LadderDataSet;
import archlab.db.ladder.LadderDatabase;
import archlab.http.ServerExecutor;
import archlab.http.ServerThreads;
import archlab.http.wire.WireOpenLoop;
import archlab.http.wire.WireRequest;
import archlab.http.wire.WireRun;
import archlab.http.wire.WireWorkload;
import archlab.ladder.compute.OrdersPage;
import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LoadSpec;
import archlab.loopback.LoopbackTomcat;
import archlab.run.LongRun;
import archlab.run.LongRunReport;
import archlab.run.LongRunSettings;
import archlab.run.ProcessMeter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The article's rule on one rung of the ladder ({@code -Dladder -Dlong}): the rung's server and data set as the ladder
 * runs them, then 30 s of warm-up, 2 minutes measured and 30 s for stability ({@link LongRunSettings}), each window
 * run as back-to-back phases as long as the ladder's own measured phase, so that every phase is a short run of the
 * same code and their p99s say how far a short run of it can land. Written as {@code ladder-<rung>-long.txt} and
 * {@code .json} ({@link LongRunReport}, the checkpoints' format), beside the ladder's report.
 *
 * <p>No JFR and no statement counts: the windows' latency, timeouts, GC pauses and the process's writes
 * ({@link ProcessMeter}), the servlet's database time and the request log's bytes per request in the measured window.
 * The machine's stalls are not probed here (the wire generator has no hiccup probe): the text shows {@code -}.
 *
 * <p>Thread-safety: one thread.
 */
public final class LadderLongRun {

    private LadderLongRun() {
    }

    /**
     * @param shortRun the rung's result in the ladder's own (short) run, this session
     * @return the rung's long report, written under {@code reportsDir}
     */
    public static LongRunReport run(String jdbcUrl, LadderSettings settings, LongRunSettings windows, LadderRun.RungResult shortRun,
            Path reportsDir, Consumer<String> out) throws java.io.IOException {
        Rung rung = shortRun.rung();
        out.accept(String.format(java.util.Locale.ROOT, "[ladder/%s] the long run: %d s of warm-up, %d s measured, %d s for"
                + " stability, in phases of %d s (-Dlong) …", rung.name(), windows.warmup().toSeconds(),
                windows.measured().toSeconds(), windows.stability().toSeconds(), settings.measure().toSeconds()));
        LadderDataSet.defineIndex(jdbcUrl, rung.query());
        ServerSegments segments = new ServerSegments();
        ServerExecutor executor = new ServerExecutor(ServerThreads.PLATFORM);
        List<LongRunReport.Window> done = new ArrayList<>();
        List<Long> slices = new ArrayList<>();
        Map<String, String> extra = new LinkedHashMap<>();
        List<Path> files = new ArrayList<>();
        try (LadderDatabase db = LadderDatabase.attach(jdbcUrl, LadderRun.POOL_SIZE);
             OrdersPage page = new OrdersPage(rung.compute(), rung.tracing(), rung.name() + "-long", LadderRun.logDir());
             LoopbackTomcat tomcat = LadderRun.server(rung, new RecentOrdersServlet(db.orders(rung.query()), segments, page), executor);
             WireOpenLoop generator = new WireOpenLoop(tomcat.baseUri(), 1)) {
            files.add(page.log().file());
            files.add(page.tracer().file());
            WireRequest[] requests = LadderRun.requests("127.0.0.1:" + tomcat.port(), LadderDataSet.customersFor(settings.orders()));
            WireWorkload workload = sequence -> requests[(int) ((sequence - 1) % requests.length)];
            LoadSpec phase = LoadSpec.builder().ratePerSecond(settings.rate()).duration(settings.measure())
                    .timeout(LadderRun.TIMEOUT).build();
            Window warm = new Window(LongRunReport.WARMUP, phase.withDuration(windows.warmup().isZero() ? phase.duration()
                    : windows.warmup()), windows.warmup().isZero() ? 0 : 1, null);
            done.add(warm.run(generator, workload, segments, rung));
            segments.reset();
            page.tracer().flush();
            long logBefore = page.log().fileBytes();
            Window measured = new Window(LongRunReport.MEASURED, phase, phases(windows.measured(), settings.measure()), slices);
            done.add(measured.run(generator, workload, segments, rung));
            extra.put("database_mean_us", String.format(java.util.Locale.ROOT, "%.1f", segments.databaseMeanMicros()));
            extra.put("answered_in_measured_window", String.valueOf(segments.requests()));
            done.add(new Window(LongRunReport.STABILITY, phase, phases(windows.stability(), settings.measure()), null)
                    .run(generator, workload, segments, rung));
            page.close(); // what the asynchronous appender still holds is written before the file is measured
            extra.put("request_log_bytes_per_request", String.format(java.util.Locale.ROOT, "%.1f (measured and stability"
                    + " windows)", (page.log().fileBytes() - logBefore) / (double) Math.max(1, segments.requests())));
        } finally {
            executor.shutdown();
        }
        for (Path f : files) { // measured above; a synchronous whole-answer log grows by megabytes a minute
            java.nio.file.Files.deleteIfExists(f);
        }
        LongRunReport report = new LongRunReport(new LongRunReport.Run("lab-ladder", "ladder-" + rung.name(), settings.rate(),
                LadderRun.TIMEOUT.toMillis(), archlab.report.Environment.current()), windows, done, new LongRunReport.Slices(settings.measure().toMillis() / 1e3, slices),
                LongRunReport.Latency.of(shortRun.load().latency()), extra);
        LongRun.write(reportsDir, "ladder-" + rung.name(), report, out);
        return report;
    }

    /** @return how many phases of {@code phase} fill {@code window} ({@link #check} holds it to a whole number) */
    static int phases(Duration window, Duration phase) {
        return (int) (window.toMillis() / phase.toMillis());
    }

    /**
     * Checks, before the ladder runs, that the long run's measured and stability windows are whole numbers of the
     * ladder's phases (the warm-up runs as one phase of its own length).
     *
     * @throws IllegalArgumentException naming the window and the phase otherwise
     */
    public static void check(LadderSettings settings, LongRunSettings windows) {
        long phase = settings.measure().toMillis();
        for (Duration d : List.of(windows.measured(), windows.stability())) {
            if (d.toMillis() % phase != 0 || d.toNanos() % 1_000_000 != 0) {
                throw new IllegalArgumentException("-Dlong on the ladder runs each window as phases of -Dladder.seconds="
                        + settings.measure().toSeconds() + ": every window must be a whole number of them, and " + d + " is not");
            }
        }
    }

    /**
     * One window, run as {@code count} back-to-back phases of the load {@code phase}.
     *
     * @param slices where each phase's p99 goes (µs); null when not kept
     */
    private record Window(String name, LoadSpec phase, int count, List<Long> slices) {

        LongRunReport.Window run(WireOpenLoop generator, WireWorkload workload, ServerSegments segments, Rung rung) {
            Histogram micros = new Histogram(3);
            long timedOut = 0;
            long started = System.nanoTime();
            ProcessMeter.Sample before = ProcessMeter.sample();
            for (int i = 0; i < count; i++) {
                WireRun run = generator.run(phase, workload);
                Histogram h = LatencyHistogram.decode(run.latency().hdrBase64());
                micros.add(h);
                timedOut += run.requests().timedOut();
                if (slices != null && h.getTotalCount() > 0) {
                    slices.add(h.getValueAtPercentile(99));
                }
            }
            LadderRun.drain(segments, rung, name + " window");
            ProcessMeter.Sample after = ProcessMeter.sample();
            return new LongRunReport.Window(name, (System.nanoTime() - started) / 1e9, timedOut,
                    LongRunReport.Latency.ofMicros(micros), -1, after.since(before));
        }
    }
}
