package archlab.background;

import java.time.Duration;

/**
 * The one check every setting of the background loops (and of the services' settings records) makes of a duration.
 *
 * <p>Stateless and thread-safe.
 */
public final class Durations {

    private Durations() {
    }

    /**
     * @param name the setting's name, for the message
     * @return {@code d}
     * @throws IllegalArgumentException naming the setting, if {@code d} is null, zero or negative
     */
    public static Duration requirePositive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
        return d;
    }
}
