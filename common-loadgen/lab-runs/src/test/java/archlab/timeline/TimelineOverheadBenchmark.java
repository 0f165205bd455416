package archlab.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.clock.NanoClock;
import archlab.loadgen.OpenLoopRunner;
import archlab.request.RequestOutcome;
import archlab.request.RequestContext;
import archlab.loadgen.RunResult;
import archlab.loadgen.Workload;
import archlab.report.ReportWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the time axis costs (the article's warning: measuring on the hot path has its own price, and a probe that
 * wakes every millisecond or two is not free on two cores). A benchmark, not a timed test: it prints its figures
 * and writes {@code target/reports/timeline-overhead.txt} (+ .json); it asserts only what holds on any machine.
 * Four figures, each the median of interleaved rounds so a noisy moment hits every variant alike:
 * <ol>
 *   <li><b>per request, hot path</b>: what the request's thread pays for the timeline — one
 *       {@link IntervalRecorder#started} and one {@link IntervalRecorder#ended} — in ns, on one thread and on two at
 *       once (two cores), against the same loop without them; and the bytes it allocates per request
 *       (target: none);</li>
 *   <li><b>the probe</b>: the CPU its thread burns waking every {@link TimelineSettings#RUN_PROBE_PERIOD}, as a share of one core and of the
 *       machine, and per wake-up;</li>
 *   <li><b>the sampler</b>: the CPU of the thread that cuts the intervals (swaps, merges, percentiles, encodes),
 *       under the book's load;</li>
 *   <li><b>the whole run</b>: the process's CPU while the runner offers the book's rate (1,500 req/s) to a no-op
 *       service for 3 s, with the timeline and probe on and {@link TimelineSettings#OFF}: the difference, as a share
 *       of the machine (target: under 1%).</li>
 * </ol>
 * Run: {@code mvn -pl common-loadgen/lab-runs test -Dbench -Dtest=TimelineOverheadBenchmark}.
 */
@EnabledIfSystemProperty(named = "bench", matches = ".*", disabledReason = "a benchmark: mvn test -Dbench")
class TimelineOverheadBenchmark {

    private static final int EVENTS = 2_000_000;
    private static final int ROUNDS = 7;
    private static final Duration PROBE_WINDOW = Duration.ofSeconds(5);
    private static final int RUN_ROUNDS = 5;
    /** Whole runs of each kind before the timed rounds (see {@link #wholeRun}). */
    private static final int WARM_RUNS = 3;
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    record HotPath(int threads, double nanosWithout, double nanosWith, double overheadNanos, double bytesPerRequest) {
    }

    record Background(String thread, double cpuShareOfOneCore, double cpuShareOfMachine, double microsPerWakeUp,
                      long wakeUps, double seconds) {
    }

    record WholeRun(double cpuShareOn, double cpuShareOff, double differenceOfMachine, long hiccupP99Micros,
                    long sendLagP99MicrosOn, long sendLagP99MicrosOff) {
    }

    @Test
    @DisplayName("prints what the timeline and the hiccup probe cost: ns and bytes per request on the hot path, the probe's and the sampler's CPU, and the whole run's CPU with them on and off")
    void timelineOverhead() throws Exception {
        List<HotPath> hot = List.of(hotPath(1), hotPath(2));
        Background probe = probe();
        Background sampler = sampler();
        WholeRun w = wholeRun();

        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "timeline and hiccup probe cost (%d cores, JDK %s); medians of interleaved rounds%n", CORES, Runtime.version()));
        text.append(String.format(Locale.ROOT, "hot path: %,d requests x %d rounds, started() + ended() per request, against the same loop without%n",
                EVENTS, ROUNDS));
        hot.forEach(h -> text.append(String.format(Locale.ROOT,
                "  threads=%d ns_per_request without=%.1f with=%.1f overhead=%.1f allocated_bytes_per_request=%.3f%n",
                h.threads(), h.nanosWithout(), h.nanosWith(), h.overheadNanos(), h.bytesPerRequest())));
        text.append(line(probe));
        text.append(line(sampler));
        text.append(String.format(Locale.ROOT, "whole run: 1,500 req/s to a no-op service for 3 s, %d rounds each:"
                        + " process CPU with timeline=%.2f%% without=%.2f%% of the machine, difference=%.2f%% (target < 1%%);"
                        + " hiccup p99=%dus; send-lag p99 on=%dus off=%dus%n",
                RUN_ROUNDS, w.cpuShareOn() * 100, w.cpuShareOff() * 100, w.differenceOfMachine() * 100, w.hiccupP99Micros(),
                w.sendLagP99MicrosOn(), w.sendLagP99MicrosOff()));
        text.append(String.format(Locale.ROOT, "verdict: hot path %.1f ns and %.3f bytes per request (one thread); probe %.2f%%"
                        + " and sampler %.2f%% of the machine; whole run %+.2f%% of the machine: %s%n",
                hot.get(0).overheadNanos(), hot.get(0).bytesPerRequest(), probe.cpuShareOfMachine() * 100,
                sampler.cpuShareOfMachine() * 100, w.differenceOfMachine() * 100,
                w.differenceOfMachine() < 0.01 ? "under the 1% target" : "OVER the 1% target"));
        System.out.print(text);
        Path dir = ReportWriter.reportsDir();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("timeline-overhead.txt"), text);
        ReportWriter.writeJson(dir.resolve("timeline-overhead.json"),
                Map.of("hotPath", hot, "probe", probe, "sampler", sampler, "wholeRun", w));
    }

    private static String line(Background b) {
        return String.format(Locale.ROOT, "%s: %.3f s, %d wake-ups, CPU %.2f%% of one core = %.2f%% of the machine, %.1f us per wake-up%n",
                b.thread(), b.seconds(), b.wakeUps(), b.cpuShareOfOneCore() * 100, b.cpuShareOfMachine() * 100, b.microsPerWakeUp());
    }

    // ---- 1. the hot path ----

    /** Median ns and bytes per request over {@link #ROUNDS} rounds of {@code threads} threads, with and without the recorder. */
    private static HotPath hotPath(int threads) throws InterruptedException {
        IntervalRecorder recorder = IntervalRecorder.start(NanoClock.SYSTEM, TimelineSettings.DEFAULT);
        try {
            recorder.beginPhase(Interval.RUN);
            round(recorder, threads, true); // warm both loops before anything is timed
            round(recorder, threads, false);
            double[] with = new double[ROUNDS];
            double[] without = new double[ROUNDS];
            double[] bytes = new double[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                double[] w = round(recorder, threads, true);
                with[r] = w[0];
                bytes[r] = w[1];
                without[r] = round(recorder, threads, false)[0];
            }
            double m = median(with);
            double o = median(without);
            return new HotPath(threads, o, m, m - o, median(bytes));
        } finally {
            recorder.close();
        }
    }

    /**
     * One round: {@code threads} threads each run {@link #EVENTS} / threads simulated requests (the runner's own
     * per-request arithmetic: a send lag, an outcome, a latency), recording them when {@code record}.
     *
     * @return {ns per request on each thread (the threads run side by side), bytes allocated per request}
     */
    private static double[] round(IntervalRecorder recorder, int threads, boolean record) throws InterruptedException {
        int perThread = EVENTS / threads;
        RequestOutcome[] outcomes = RequestOutcome.values();
        long[] allocated = new long[threads];
        long[] sink = new long[threads];
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            workers.add(Thread.ofPlatform().start(() -> {
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long before = THREADS.getCurrentThreadAllocatedBytes();
                long acc = 0;
                for (int i = 0; i < perThread; i++) {
                    long lag = (i * 7919L) & 0x3FFF;                 // 0..16 µs, like a punctual generator
                    long latency = 1_000_000L + ((i * 104_729L) & 0xFFFFFF); // 1..18 ms, like the book's answers
                    RequestOutcome o = outcomes[(i & 63) == 0 ? 1 : 0];
                    if (record) {
                        recorder.started(lag);
                        recorder.ended(o, latency);
                    }
                    acc += lag + latency + o.ordinal();
                }
                allocated[me] = THREADS.getCurrentThreadAllocatedBytes() - before;
                sink[me] = acc;
            }));
        }
        ready.await();
        long start = System.nanoTime();
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        long elapsed = System.nanoTime() - start;
        assertThat(Arrays.stream(sink).sum()).as("the loop's work was done").isNotZero();
        return new double[] {elapsed / (double) perThread, Arrays.stream(allocated).sum() / (double) (perThread * threads)};
    }

    // ---- 2. the probe, alone ----

    private static Background probe() throws InterruptedException {
        try (HiccupProbe probe = HiccupProbe.start(TimelineSettings.RUN_PROBE_PERIOD)) {
            Thread.sleep(200); // started and settled
            long id = probe.thread().threadId();
            long cpu0 = THREADS.getThreadCpuTime(id);
            long wakes0 = probe.wakeUps();
            long t0 = System.nanoTime();
            Thread.sleep(PROBE_WINDOW.toMillis());
            long cpu = THREADS.getThreadCpuTime(id) - cpu0;
            long wakes = probe.wakeUps() - wakes0;
            double seconds = (System.nanoTime() - t0) / 1e9;
            return background("hiccup probe (" + TimelineSettings.RUN_PROBE_PERIOD.toMillis() + " ms period, idle machine)", cpu, wakes, seconds);
        }
    }

    private static Background background(String name, long cpuNanos, long wakeUps, double seconds) {
        double oneCore = cpuNanos / (seconds * 1e9);
        return new Background(name, oneCore, oneCore / CORES, wakeUps == 0 ? 0 : cpuNanos / 1e3 / wakeUps, wakeUps, seconds);
    }

    // ---- 3. the sampler, fed the book's rate ----

    /**
     * The sampler's thread CPU over {@link #PROBE_WINDOW} while a feeder records the book's rate (1,500 requests a
     * second, in steps of a millisecond); the feeder's own CPU is not counted.
     */
    private static Background sampler() throws InterruptedException {
        IntervalRecorder recorder = IntervalRecorder.start(NanoClock.SYSTEM, TimelineSettings.DEFAULT);
        try {
            recorder.beginPhase(Interval.RUN);
            long id = recorder.samplerThread().threadId();
            long cpu0 = THREADS.getThreadCpuTime(id);
            long t0 = System.nanoTime();
            long end = t0 + PROBE_WINDOW.toNanos();
            long fed = 0;
            while (System.nanoTime() < end) {
                long due = (System.nanoTime() - t0) * 1_500 / 1_000_000_000L;
                for (; fed < due; fed++) {
                    recorder.started((fed * 7919L) & 0x3FFF);
                    recorder.ended(RequestOutcome.COMPLETED, 2_000_000L + ((fed * 104_729L) & 0x7FFFFF));
                }
                Thread.sleep(1);
            }
            long cpu = THREADS.getThreadCpuTime(id) - cpu0;
            double seconds = (System.nanoTime() - t0) / 1e9;
            long cuts = recorder.finish().intervals().size();
            return background("timeline sampler (100 ms intervals, 1,500 req/s)", cpu, cuts, seconds);
        } finally {
            recorder.close();
        }
    }

    // ---- 4. the whole run under the book's rate ----

    private static WholeRun wholeRun() {
        Workload noop = new Workload() {
            @Override
            public String operationOf(long sequence) {
                return "noop";
            }

            @Override
            public void execute(long sequence, String operation, RequestContext ctx) {
            }
        };
        LoadSpec spec = LoadSpec.builder().traceEvery(0).build();
        OpenLoopRunner on = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.DEFAULT);
        OpenLoopRunner off = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.OFF);
        // warm both until the JIT has settled: a C2 compilation landing in one round costs the process more CPU than
        // the whole timeline does, and with a short warm-up it lands in on- and off-rounds at random
        for (int w = 0; w < WARM_RUNS; w++) {
            on.run(spec, noop);
            off.run(spec, noop);
        }
        double[] shareOn = new double[RUN_ROUNDS];
        double[] shareOff = new double[RUN_ROUNDS];
        long[] hiccupP99 = new long[RUN_ROUNDS];
        long[] lagOn = new long[RUN_ROUNDS];
        long[] lagOff = new long[RUN_ROUNDS];
        for (int r = 0; r < RUN_ROUNDS; r++) { // interleaved: on, off, on, off …
            System.gc();
            long cpu0 = OS.getProcessCpuTime();
            long t0 = System.nanoTime();
            RunResult a = on.run(spec, noop);
            shareOn[r] = (OS.getProcessCpuTime() - cpu0) / ((double) (System.nanoTime() - t0) * CORES);
            System.gc();
            cpu0 = OS.getProcessCpuTime();
            t0 = System.nanoTime();
            RunResult b = off.run(spec, noop);
            shareOff[r] = (OS.getProcessCpuTime() - cpu0) / ((double) (System.nanoTime() - t0) * CORES);
            assertThat(a.offered()).isEqualTo(spec.plannedRequests());
            assertThat(b.offered()).isEqualTo(spec.plannedRequests());
            assertThat(a.timeline().recorded()).isTrue();
            assertThat(b.timeline().recorded()).isFalse();
            hiccupP99[r] = a.hiccups().p99Micros();
            lagOn[r] = a.sendLag().p99Micros();
            lagOff[r] = b.sendLag().p99Micros();
        }
        double on50 = median(shareOn);
        double off50 = median(shareOff);
        return new WholeRun(on50, off50, on50 - off50, (long) median(hiccupP99), (long) median(lagOn), (long) median(lagOff));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double median(long[] values) {
        return median(Arrays.stream(values).asDoubleStream().toArray());
    }
}
