package archlab.run;

import archlab.report.SweepRow;
import java.lang.management.ManagementFactory;

/**
 * This JVM's share of the machine's cores over one fixture's run: its CPU time and the wall time from just before the
 * fixture's {@code beforeRun} to the end of the load, taken by {@link FixtureRun}. One run per instance; the thread
 * that runs the fixture reads it.
 */
final class ProcessCpuShare implements FixtureRun.Around {
    private long cpu0;
    private long t0;
    private long cpu1;
    private long wall;

    @Override
    public void starting() {
        // one rate's thousands of finished threads are collected now, not during the next rate's run
        System.gc();
        cpu0 = processCpuNanos();
        t0 = System.nanoTime();
    }

    @Override
    public void loaded() {
        wall = System.nanoTime() - t0;
        cpu1 = processCpuNanos();
    }

    /** @return the share of all cores the process used, 0..1, or {@link SweepRow#CPU_UNKNOWN} */
    double share() {
        return cpu0 < 0 || cpu1 < 0 || wall <= 0 ? SweepRow.CPU_UNKNOWN
                : Math.min(1.0, (double) (cpu1 - cpu0) / ((double) wall * Runtime.getRuntime().availableProcessors()));
    }

    /** @return this JVM's CPU time so far, ns, or -1 when the platform bean cannot tell */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
