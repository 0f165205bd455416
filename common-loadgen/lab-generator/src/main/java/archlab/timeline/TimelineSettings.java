package archlab.timeline;

import java.time.Duration;

/**
 * How a run records its timeline: the length of one interval, and how often the hiccup probe wakes. The trap it
 * names: an interval much shorter than the gap between requests holds one or two samples and its p99 is noise; much
 * longer, and a 50 ms stall disappears into it. 100 ms holds 150 requests of the book's load.
 *
 * @param interval    the length of one interval: at least 1 ms (the interval log's resolution); {@link Duration#ZERO}
 *                    only in {@link #OFF}
 * @param probePeriod how often the {@link HiccupProbe} asks to wake: at least 1 µs; zero only in {@link #OFF}
 */
public record TimelineSettings(Duration interval, Duration probePeriod) {

    /**
     * How often a run's hiccup probe wakes: every 2 ms, not {@link HiccupProbe#DEFAULT_PERIOD}'s 1 ms. Each wake-up
     * costs the probe's thread some microseconds of CPU (a timer, two context switches); over a whole run on this
     * 2-core machine a 1 ms probe alone took most of the 1% of the machine the timeline may cost
     * ({@code TimelineOverheadBenchmark}), and 2 ms halves it. What the timeline must still show, it shows: a stall
     * of a few milliseconds or more (it is seen in full less at most one period), each interval's worst stall, and
     * time-weighted percentiles (the expected-interval correction uses the period). A claim's own short probe keeps
     * 1 ms.
     */
    public static final Duration RUN_PROBE_PERIOD = Duration.ofMillis(2);
    /** 100 ms intervals and a probe waking every {@link #RUN_PROBE_PERIOD}. */
    public static final TimelineSettings DEFAULT = new TimelineSettings(Duration.ofMillis(100), RUN_PROBE_PERIOD);
    /** No timeline, no probe, no extra thread: only for measuring what they cost (a benchmark), never for a report. */
    public static final TimelineSettings OFF = new TimelineSettings(Duration.ZERO, Duration.ZERO);

    public TimelineSettings {
        if (interval == null || probePeriod == null) {
            throw new IllegalArgumentException("interval and probePeriod are required");
        }
        if (!(interval.isZero() && probePeriod.isZero())) {
            checkedInterval("interval", interval);
            if (probePeriod.isNegative() || probePeriod.toNanos() < HiccupProbe.RESOLUTION_NANOS) {
                throw new IllegalArgumentException("the probe's period must be at least 1 µs, was " + probePeriod);
            }
        }
    }

    /**
     * @param what     the setting's name, for the message (e.g. {@code lab.interval})
     * @param interval a timeline interval
     * @return {@code interval}, if it is at least 1 ms and at most one minute
     * @throws IllegalArgumentException naming {@code what} otherwise
     */
    public static Duration checkedInterval(String what, Duration interval) {
        if (interval == null || interval.compareTo(Duration.ofMillis(1)) < 0 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException(what + " must be between 1ms and 1m (the interval log counts whole"
                    + " milliseconds), was " + interval);
        }
        return interval;
    }

    /** @return these settings with intervals of {@code i} */
    public TimelineSettings withInterval(Duration i) {
        return new TimelineSettings(i, probePeriod.isZero() ? RUN_PROBE_PERIOD : probePeriod);
    }

    /** @return whether a timeline is recorded */
    public boolean on() {
        return !interval.isZero();
    }
}
