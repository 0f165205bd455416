package archlab.profile;

import java.time.Duration;
import java.time.Instant;

/**
 * Accumulating: how long the recording ran, and on how many processors.
 *
 * <p><b>Trap: the events do not mark the run's edges.</b> A wait that began before the recording did can start
 * before it, periodic events are written when a chunk begins and ends, and the file is not in time order. So the
 * duration is taken between {@link JfrRecorder}'s start and stop markers ({@code archlab.ProfileMarker}); only a
 * recording without them falls back to the earliest event start and the latest event end.
 *
 * <p>Processors: the markers' {@code availableProcessors} (what the JVM could use, e.g. in a container), else
 * {@code jdk.CPUInformation}'s hardware threads; {@link #cores()} is not positive when the file has neither.
 *
 * <p>Not thread-safe: one per read.
 */
final class RecordingSpan {

    private Instant first;
    private Instant last;
    private Instant markerStart;
    private Instant markerStop;
    private int markerCores = -1;
    private int hwThreads = -1;

    /** Every event widens the span: the earliest start, the latest end. */
    void event(Instant start, Instant end) {
        if (first == null || start.isBefore(first)) {
            first = start;
        }
        if (last == null || end.isAfter(last)) {
            last = end;
        }
    }

    /** A {@link ProfileMarkerEvent}: {@code start} for its {@link ProfileMarkerEvent#START} phase, else the stop. */
    void marker(boolean start, Instant at, int availableProcessors) {
        markerCores = availableProcessors;
        if (start) {
            markerStart = at;
        } else {
            markerStop = at;
        }
    }

    /** A {@code jdk.CPUInformation} event. */
    void cpuInformation(int hardwareThreads) {
        hwThreads = hardwareThreads;
    }

    /** @return nanoseconds between the markers, else from the first to the last event, else 0 */
    long durationNanos() {
        if (markerStart != null && markerStop != null && !markerStop.isBefore(markerStart)) {
            return Duration.between(markerStart, markerStop).toNanos();
        }
        return first == null ? 0 : Duration.between(first, last).toNanos();
    }

    /** @return the markers' processor count, else the hardware threads; not positive if the file has neither */
    int cores() {
        return markerCores > 0 ? markerCores : hwThreads;
    }
}
