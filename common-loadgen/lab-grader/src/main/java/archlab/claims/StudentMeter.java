package archlab.claims;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the student's processes use while a claim judges them, as the operating system counts it (never as the
 * student's JVM reports it: that telemetry is the student's to forge): CPU time from {@code /proc/<pid>/stat}
 * (user + system, the JVM's garbage collector and compiler threads included, and its reaped children's), resident
 * memory, and the whole machine's busy time from {@code /proc/stat}, sampled every {@link #PERIOD_MILLIS} ms.
 *
 * <p>The figure that matters is who kept the machine busy while it was saturated ({@link #SATURATED} of its cores
 * over a {@link #WINDOW_SAMPLES}-sample window): the student's processes, the grader's own JVM (its load, stubs and
 * probes), or other processes. A claim disturbed while the student's processes used most of the machine
 * ({@link Use#disturbedByTheStudent()}) is judged as measured — a student who burns the machine to make a claim "not
 * judged" fails it; a disturbance from elsewhere, the grader's own load included, leaves a claim not judged.
 *
 * <p>Thread-safety: sampled on a daemon thread of its own; {@link #use()} and {@link #close()} from any thread.
 */
final class StudentMeter implements AutoCloseable {

    static final int PERIOD_MILLIS = 50;
    static final int WINDOW_SAMPLES = 6;
    /** A window in which the machine's cores were at least this busy is saturated. */
    static final double SATURATED = 0.9;
    /**
     * The share of a saturated machine's busy time the student's processes must have used for a disturbance to be the
     * student's own: an honest service under the grader's load takes the smaller part (the load, the stubs and the
     * other end of the wire are the grader's); a process burning threads takes most of it.
     */
    static final double STUDENT_SHARE = 0.6;
    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux
    private static final long PAGE_BYTES = 4096;

    /**
     * Who kept the machine busy in the windows in which it was at least {@link #SATURATED} busy.
     *
     * @param cpuSeconds   the machine's busy CPU time in those windows
     * @param studentShare the student's processes' share of it, 0..1
     * @param graderShare  the grader's own (this JVM: its load, stubs and probes), 0..1
     */
    record Saturation(double cpuSeconds, double studentShare, double graderShare) {

        static final Saturation NONE = new Saturation(0, 0, 0);

        /** @return the share that neither the student nor the grader used */
        double othersShare() {
            return Math.max(0, 1 - studentShare - graderShare);
        }
    }

    /**
     * What the student's processes used during one attempt, and who kept the machine busy while it was saturated.
     *
     * @param cpuSeconds   CPU time, all their processes and threads
     * @param wallSeconds  how long it was metered
     * @param peakCores    the most cores they kept busy over one window
     * @param peakRssBytes the most resident memory of all their processes at once
     * @param processes    how many processes of theirs were seen
     * @param saturated    who used the machine while it was saturated
     */
    record Use(double cpuSeconds, double wallSeconds, double peakCores, long peakRssBytes, int processes, Saturation saturated) {

        static final Use NONE = new Use(0, 0, 0, 0, 0, Saturation.NONE);

        /** @return the share of the saturated windows' busy time that neither the student nor the grader used */
        double othersShareOfSaturated() {
            return saturated.othersShare();
        }

        /**
         * @return whether a disturbance of this attempt was the student's own: the machine was saturated, and the
         *         student's processes used at least {@link #STUDENT_SHARE} of its busy time then. An honest service
         *         under the grader's load uses its part of the machine (the grader's load, its stubs and the wire use
         *         the larger part); a solution that burns the machine to make a claim "not judged" uses most of it
         */
        boolean disturbedByTheStudent() {
            return saturated.cpuSeconds() > 0 && saturated.studentShare() >= STUDENT_SHARE - 1e-9;
        }

        String describe() {
            return String.format(Locale.ROOT, "the solution's processes used %.1f s of CPU in %.1f s, at most %.2f of %d cores over %d ms,"
                            + " %d MB resident, %d process(es); while the machine was saturated (%.1f s of CPU): the solution %.0f %%,"
                            + " the grader %.0f %%, other processes %.0f %%",
                    cpuSeconds, wallSeconds, peakCores, Runtime.getRuntime().availableProcessors(), PERIOD_MILLIS * WINDOW_SAMPLES,
                    peakRssBytes >> 20, processes, saturated.cpuSeconds(), saturated.studentShare() * 100,
                    saturated.graderShare() * 100, saturated.othersShare() * 100);
        }
    }

    private final Supplier<List<ProcessHandle>> processes;
    private final Thread sampler;
    private final long startNanos = System.nanoTime();
    private final List<long[]> samples = new ArrayList<>(); // {nanos, studentTicks, graderTicks, machineBusyTicks, machineTicks}
    private final Map<Long, Long> lastTicks = new HashMap<>();
    private final Set<Long> seen = new HashSet<>();
    private long studentTicks;
    private long peakRss;
    private boolean baselineTaken;
    private volatile boolean running = true;

    private StudentMeter(Supplier<List<ProcessHandle>> processes) {
        this.processes = processes;
        this.sampler = Thread.ofPlatform().daemon().name("student-meter").unstarted(this::run);
    }

    static StudentMeter start(Supplier<List<ProcessHandle>> processes) {
        StudentMeter m = new StudentMeter(processes);
        m.sample();
        m.sampler.start();
        return m;
    }

    private void run() {
        while (running) {
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            sample();
        }
    }

    private synchronized void sample() {
        long rss = 0;
        for (ProcessHandle p : processes.get()) {
            long[] stat = stat(p.pid());
            if (stat == null) {
                continue;
            }
            seen.add(p.pid());
            // what a process used before the meter started (the JVM's own start) is not the attempt's
            long before = lastTicks.getOrDefault(p.pid(), baselineTaken ? 0L : stat[0]);
            if (stat[0] > before) {
                studentTicks += stat[0] - before;
            }
            lastTicks.put(p.pid(), Math.max(before, stat[0]));
            rss += stat[1] * PAGE_BYTES;
        }
        baselineTaken = true;
        peakRss = Math.max(peakRss, rss);
        long[] graderStat = stat(ProcessHandle.current().pid());
        long[] machine = machineTicks();
        samples.add(new long[] {System.nanoTime(), studentTicks, graderStat == null ? 0 : graderStat[0], machine[0], machine[1]});
    }

    /** @return {ticks of user+system time, its reaped children's too; resident pages}, or null when it ended */
    private static long[] stat(long pid) {
        try {
            String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            // after the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14) ... rss(21)
            return new long[] {Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]),
                    Long.parseLong(f[21])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** @return {busy ticks, all ticks} of the whole machine, all cores */
    private static long[] machineTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal
            long busy = 0;
            long all = 0;
            for (int i = 1; i <= 8; i++) {
                long v = Long.parseLong(f[i]);
                all += v;
                busy += i == 4 || i == 5 ? 0 : v;
            }
            return new long[] {busy, all};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }

    /** @return what was used up to now */
    synchronized Use use() {
        double peakCores = 0;
        long saturatedBusy = 0;
        long saturatedStudent = 0;
        long saturatedGrader = 0;
        for (int i = WINDOW_SAMPLES; i < samples.size(); i++) {
            long[] a = samples.get(i - WINDOW_SAMPLES);
            long[] b = samples.get(i);
            double seconds = (b[0] - a[0]) / 1e9;
            long student = b[1] - a[1];
            peakCores = Math.max(peakCores, student / TICKS_PER_SECOND / seconds);
            long busy = b[3] - a[3];
            long all = b[4] - a[4];
            if (all > 0 && busy >= SATURATED * all && i % WINDOW_SAMPLES == 0) { // windows that do not overlap
                saturatedBusy += busy;
                saturatedStudent += student;
                saturatedGrader += b[2] - a[2];
            }
        }
        Saturation saturation = new Saturation(saturatedBusy / TICKS_PER_SECOND, share(saturatedStudent, saturatedBusy),
                share(saturatedGrader, saturatedBusy));
        return new Use(studentTicks / TICKS_PER_SECOND, (System.nanoTime() - startNanos) / 1e9, peakCores, peakRss, seen.size(),
                saturation);
    }

    private static double share(long part, long whole) {
        return whole <= 0 ? 0 : Math.min(1.0, (double) part / whole);
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        try {
            sampler.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
    }
}
