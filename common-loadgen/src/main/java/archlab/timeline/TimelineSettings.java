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

    /** 100 ms intervals and a probe waking every millisecond. */
    public static final TimelineSettings DEFAULT = new TimelineSettings(Duration.ofMillis(100), HiccupProbe.DEFAULT_PERIOD);
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
        return new TimelineSettings(i, probePeriod.isZero() ? HiccupProbe.DEFAULT_PERIOD : probePeriod);
    }

    /** @return whether a timeline is recorded */
    public boolean on() {
        return !interval.isZero();
    }
}
