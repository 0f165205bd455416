package archlab.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import jdk.jfr.Recording;

/**
 * A JDK Flight Recorder recording around a load run, started from code (no {@code -XX:StartFlightRecording}):
 * <pre>{@code
 * try (JfrRecorder jfr = JfrRecorder.start(ProfileSettings.defaults())) {
 *     runLoad();
 *     Path file = jfr.stopAndDump(reportsDir.resolve("profile.jfr"));
 *     System.out.println(ProfileReport.read(file).render(10));
 * }
 * }</pre>
 *
 * <p>Records {@code jdk.ExecutionSample} (CPU), {@code jdk.ObjectAllocationSample} (allocation),
 * {@code jdk.ThreadPark}, {@code jdk.JavaMonitorEnter} and {@code archlab.LockWait} (lock waits; the last from
 * {@code ProfiledLock}), all with stack traces, plus
 * {@code jdk.GarbageCollection}, {@code jdk.GCPhasePause}, {@code jdk.ZAllocationStall}, {@code jdk.GCHeapSummary},
 * {@code jdk.CPUInformation},
 * {@code jdk.ActiveSetting}, {@code jdk.VirtualThreadStart} and {@code jdk.ThreadAllocationStatistics} (without
 * stack traces) for the summaries, the allocation correction and the notes.
 * The dumped file is an ordinary {@code .jfr} that JDK Mission Control or {@code jfr print} opens.
 *
 * <p>Stack depth is a JVM-wide JFR option ({@code -XX:FlightRecorderOptions:stackdepth=N}, default 64) that
 * the {@code jdk.jfr} API cannot change; deeper stacks are truncated at their outermost end and
 * {@link ProfileReport#notes()} says how many were.
 *
 * <p>Thread-safe (methods are synchronized); meant to be used by the one thread that runs the load.
 * Several recorders may run at once; JFR then records the union of their settings in each of them.
 */
public final class JfrRecorder implements AutoCloseable {

    private final ProfileSettings settings;
    private final Recording recording;
    private boolean stopped;
    private boolean closed;

    private JfrRecorder(ProfileSettings settings, Recording recording) {
        this.settings = settings;
        this.recording = recording;
    }

    /**
     * Starts recording now.
     *
     * @param settings what to record
     * @return the running recorder; close it (or {@link #stopAndDump}) to end the recording
     * @throws IllegalStateException if JFR is unavailable in this JVM
     */
    public static JfrRecorder start(ProfileSettings settings) {
        Objects.requireNonNull(settings, "settings");
        Recording r = new Recording();
        r.setName("arch-lab profile");
        r.setToDisk(true); // an in-memory recording silently drops its oldest data when the buffers fill
        r.setDumpOnExit(false);
        r.enable("jdk.ExecutionSample").withPeriod(settings.executionSamplePeriod());
        r.enable("jdk.ObjectAllocationSample")
                .with("throttle", settings.allocationSamplesPerSecond() + "/s")
                .withStackTrace();
        r.enable("jdk.ThreadPark").withThreshold(settings.lockWaitThreshold()).withStackTrace();
        r.enable("jdk.JavaMonitorEnter").withThreshold(settings.lockWaitThreshold()).withStackTrace();
        // ProfiledLock's wait event (by name, so this class does not depend on it being loaded)
        r.enable(ProfileReport.PROFILED_LOCK_WAIT).withThreshold(settings.lockWaitThreshold()).withStackTrace();
        r.enable("jdk.GarbageCollection");
        r.enable("jdk.GCPhasePause");
        // ZGC's threads waiting for memory: not pauses, so not in the two above
        r.enable("jdk.ZAllocationStall").withThreshold(java.time.Duration.ZERO).withoutStackTrace();
        r.enable("jdk.GCHeapSummary");
        r.enable("jdk.CPUInformation").with("period", "everyChunk");
        r.enable("jdk.ActiveSetting");
        r.enable("jdk.VirtualThreadStart").withoutStackTrace();
        // Per-thread allocation counters at the start (and end) of the recording: tells the reader which
        // threads existed before it, whose first allocation sample can carry pre-recording allocation.
        r.enable("jdk.ThreadAllocationStatistics").with("period", "everyChunk");
        r.enable(ProfileMarkerEvent.class);
        try {
            r.start();
        } catch (RuntimeException e) {
            r.close();
            throw new IllegalStateException("could not start a JFR recording", e);
        }
        ProfileMarkerEvent.commit(ProfileMarkerEvent.START);
        return new JfrRecorder(settings, r);
    }

    /** @return the settings this recorder was started with */
    public ProfileSettings settings() {
        return settings;
    }

    /**
     * Stops the recording and writes it to {@code file} (parent directories are created; an existing file
     * is replaced). The file stays on disk for JDK Mission Control. The recorder is closed afterwards.
     *
     * @param file where to write the {@code .jfr}
     * @return {@code file}
     * @throws IllegalStateException if already stopped or closed
     * @throws UncheckedIOException  if the file cannot be written
     */
    public synchronized Path stopAndDump(Path file) {
        Objects.requireNonNull(file, "file");
        if (stopped || closed) {
            throw new IllegalStateException("recording already stopped");
        }
        ProfileMarkerEvent.commit(ProfileMarkerEvent.STOP);
        stopped = true;
        try {
            recording.stop();
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            recording.dump(file);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("could not write JFR recording to " + file, e);
        } finally {
            close();
        }
    }

    /** Ends the recording; if {@link #stopAndDump} was not called, the recorded data is discarded. Idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            stopped = true;
            recording.close();
        }
    }
}
