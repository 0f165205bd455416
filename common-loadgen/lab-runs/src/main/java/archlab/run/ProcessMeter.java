package archlab.run;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples what this JVM's collectors and writes did, every {@value #PERIOD_MILLIS} ms, so that a long run can say how
 * often the collector ran and how many bytes the process wrote inside each of its windows. The trap it avoids: a GC
 * frequency or a write count over the whole run mixes the warm-up's into the measured window's.
 *
 * <p>Collections are the collectors' beans' counts, without the concurrent ones ({@code G1 Concurrent GC},
 * {@code ZGC Major Cycles}…: a concurrent cycle is not a pause); bytes written are {@code write_bytes} of
 * {@code /proc/self/io}: what the process sent to the storage layer (log and trace files, counted when the page is
 * dirtied, so a buffered write counts as it is made); sockets, pipes and the console are not counted (they are in
 * {@code wchar}, which an HTTP server's answers and a JDBC driver's queries would swamp); −1 off Linux.
 *
 * <p>Thread-safety: {@link #start()} and {@link #stop()} from one thread; the samples are read after {@link #stop()}.
 */
public final class ProcessMeter implements AutoCloseable {

    static final long PERIOD_MILLIS = 100;
    private static final Path PROC_IO = Path.of("/proc/self/io");

    /** One sample: when ({@link System#nanoTime()}), collections so far, bytes written so far (−1: unknown). */
    public record Sample(long atNanos, long collections, long bytesWritten) {

        /** @return what happened between {@code earlier} and this sample: pauses and bytes (−1 when unknown) */
        public LongRunReport.Process since(Sample earlier) {
            return new LongRunReport.Process(collections - earlier.collections, bytesWritten < 0 || earlier.bytesWritten < 0
                    ? -1 : bytesWritten - earlier.bytesWritten);
        }
    }

    private final List<Sample> samples = new ArrayList<>();
    private Thread thread;
    private volatile boolean stopping;

    /** Starts sampling on a daemon thread of its own, with a first sample now. */
    void start() {
        samples.add(sample());
        thread = Thread.ofPlatform().daemon().name("long-run-meter").start(() -> {
            while (!stopping) {
                try {
                    Thread.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                Sample s = sample();
                synchronized (samples) {
                    samples.add(s);
                }
            }
        });
    }

    /** Stops sampling, with a last sample now; @return every sample, oldest first */
    List<Sample> stop() {
        stopping = true;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (samples) {
            samples.add(sample());
            return List.copyOf(samples);
        }
    }

    @Override
    public void close() {
        stopping = true;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** @return the last sample taken at or before {@code nanos}, else the first one */
    static Sample at(List<Sample> samples, long nanos) {
        Sample found = samples.get(0);
        for (Sample s : samples) {
            if (s.atNanos() <= nanos) {
                found = s;
            }
        }
        return found;
    }

    /** @return a sample now, on the calling thread */
    public static Sample sample() {
        long collections = 0;
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = bean.getName();
            if (!name.contains("Concurrent") && !name.contains("Cycles") && bean.getCollectionCount() > 0) {
                collections += bean.getCollectionCount();
            }
        }
        return new Sample(System.nanoTime(), collections, bytesWritten());
    }

    /** @return {@code write_bytes} of {@code /proc/self/io}, or −1 when it cannot be read */
    static long bytesWritten() {
        try {
            for (String line : Files.readAllLines(PROC_IO)) {
                if (line.startsWith("write_bytes:")) {
                    return Long.parseLong(line.substring("write_bytes:".length()).trim());
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
