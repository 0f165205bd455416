package archlab.run;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine's CPU use over one phase, beside this JVM's: the machine's busy jiffies from {@code /proc/stat} (Linux
 * only) and this JVM's CPU time, both taken at the phase's start ({@link #now}) and end ({@link #until}).
 *
 * <p>Immutable; thread-safe.
 *
 * @param busy     the machine's busy jiffies so far ({@code -1}: not readable here)
 * @param total    all its jiffies so far
 * @param jvmNanos this JVM's CPU time so far ({@code -1}: not measurable)
 * @param wallNanos when it was taken
 */
record MachineCpu(long busy, long total, long jvmNanos, long wallNanos) {

    /**
     * CPU use over one phase: percent of all the machine's cores busy, and this JVM's CPU time as percent of the same.
     * {@code -1} when not measurable here.
     */
    public record Use(double machineBusyPercent, double jvmPercent) {
        /** Nothing measured. */
        static final Use UNKNOWN = new Use(-1, -1);

        /** @return what processes other than this JVM used, percent of all cores ({@code -1}: not measurable) */
        public double othersPercent() {
            return machineBusyPercent < 0 || jvmPercent < 0 ? -1 : Math.max(0, machineBusyPercent - jvmPercent);
        }

        String text() {
            return machineBusyPercent < 0 ? "n/a" : String.format(Locale.ROOT, "machine %.0f%%, this JVM %.0f%%",
                    machineBusyPercent, jvmPercent);
        }
    }

    static MachineCpu now() {
        long jvm = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return new MachineCpu(total - idle, total, jvm, System.nanoTime());
        } catch (IOException | RuntimeException e) {
            return new MachineCpu(-1, -1, jvm, System.nanoTime());
        }
    }

    Use until(MachineCpu later) {
        if (total < 0 || later.total <= total) {
            return Use.UNKNOWN;
        }
        double busyPercent = 100.0 * (later.busy - busy) / (later.total - total);
        int cores = Runtime.getRuntime().availableProcessors();
        double jvmPercent = jvmNanos < 0 ? -1 : 100.0 * (later.jvmNanos - jvmNanos) / ((later.wallNanos - wallNanos) * (double) cores);
        return new Use(Math.round(busyPercent * 10) / 10.0, Math.round(jvmPercent * 10) / 10.0);
    }

    /**
     * @return the JVM's stop-the-world collection time so far, ms: every collector bean but those that count concurrent
     *         cycles (ZGC's and Shenandoah's {@code … Cycles}); G1's {@code G1 Concurrent GC} counts its remark and
     *         cleanup pauses (JDK 21 on), so it is in
     */
    static long gcPauseMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().filter(b -> !b.getName().endsWith("Cycles"))
                .mapToLong(b -> Math.max(0, b.getCollectionTime())).sum();
    }
}
