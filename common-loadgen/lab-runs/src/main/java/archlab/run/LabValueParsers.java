package archlab.run;

import archlab.loadgen.Arrival;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The parsers of {@code lab.*} values, one per kind of value ({@link LabProperties.Key} pairs a property with one):
 * whole numbers, ranges, enum names, durations, rates, arrivals. Each message names the property and the value as the
 * reader gave it ({@code lab.rate must be a whole number, was 'fast'}).
 *
 * <p>Stateless.
 */
final class LabValueParsers {

    private LabValueParsers() {
    }

    static int wholeNumber(String property, String v) {
        try {
            return Integer.parseInt(v.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a whole number, was '" + v + "'");
        }
    }

    static int repeat(String property, String v) {
        int n = wholeNumber(property, v);
        if (n < 1) {
            throw new IllegalArgumentException(property + " must be at least 1, was '" + v + "'");
        }
        return n;
    }

    /** Parses the name of one of {@code type}'s constants, in any case; {@code names} lists them for the message. */
    static <E extends Enum<E>> E oneOf(String property, String v, Class<E> type, String names) {
        try {
            return Enum.valueOf(type, v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + " must be " + names + ", was '" + v + "'");
        }
    }

    static int connections(String property, String v) {
        return within(property, v, 1, 10_000, " connections");
    }

    /** A whole number in {@code min..max}, or a message naming the property, the range ({@code what} after it) and v. */
    static int within(String property, String v, int min, int max, String what) {
        int n = wholeNumber(property, v);
        if (n < min || n > max) {
            throw new IllegalArgumentException(property + " must be " + min + ".." + max + what + ", was '" + v + "'");
        }
        return n;
    }

    static Arrival arrival(String property, String v) {
        String a = v.trim().toLowerCase(Locale.ROOT);
        if (a.equals("fixed")) {
            return Arrival.fixed();
        }
        if (a.equals("poisson")) {
            return Arrival.poisson(1L);
        }
        if (a.startsWith("poisson:")) {
            String seed = a.substring("poisson:".length());
            try {
                return Arrival.poisson(Long.parseLong(seed.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(property + " needs a whole-number seed, was '" + seed + "'");
            }
        }
        throw new IllegalArgumentException(property + " must be fixed or poisson[:SEED], was '" + v + "'");
    }

    static boolean bool(String property, String v) {
        String b = v.trim().toLowerCase(Locale.ROOT);
        if (!b.equals("true") && !b.equals("false")) {
            throw new IllegalArgumentException(property + " must be true or false, was '" + v + "'");
        }
        return b.equals("true");
    }

    /** Parses {@code 250,500,750} (spaces and {@code _} allowed); the sweep checks the rates make valid loads. */
    static List<Integer> rates(String property, String v) {
        List<Integer> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            String t = part.trim().replace("_", "");
            try {
                out.add(Integer.parseInt(t));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(property + " must be whole numbers of req/s separated by commas"
                        + " (e.g. 250,500,750); '" + part.trim() + "' in '" + v + "' is not one");
            }
        }
        return List.copyOf(out);
    }

    static Duration interval(String property, String v) {
        return archlab.timeline.TimelineSettings.checkedInterval(property, duration(property, v));
    }

    /** A warm-up's length: {@code lab.jit.warmup}, {@code lab.sweep.warmup}. */
    static Duration warmup(String property, String v) {
        return CapacitySweep.checkedWarmup(property, duration(property, v));
    }

    static int sweepAttempts(String property, String v) {
        try {
            return CapacitySweep.checkedAttempts(property, Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a whole number of runs, was '" + v + "'");
        }
    }

    /** A plain decimal amount: {@code 3}, {@code 1.5}, {@code .5}; no sign, exponent, hex or {@code d}/{@code f} suffix. */
    private static final Pattern AMOUNT = Pattern.compile("\\d*\\.?\\d+");

    /** Accepts {@code 3s}, {@code 200ms}, {@code 1.5s}, {@code 2m} or ISO-8601 {@code PT3S}. */
    static Duration duration(String property, String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            if (t.endsWith("ms")) {
                return Duration.ofNanos(Math.round(amount(t, 2) * 1_000_000L));
            }
            if (t.endsWith("s")) {
                return Duration.ofNanos(Math.round(amount(t, 1) * 1_000_000_000L));
            }
            if (t.endsWith("m")) {
                return Duration.ofNanos(Math.round(amount(t, 1) * 60_000_000_000L));
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(property + " must be a duration such as 3s, 200ms or PT3S, was '" + v + "'");
    }

    /** The number before a unit suffix of {@code suffixLength} characters. */
    private static double amount(String t, int suffixLength) {
        String number = t.substring(0, t.length() - suffixLength).trim();
        if (!AMOUNT.matcher(number).matches()) {
            throw new NumberFormatException(number);
        }
        return Double.parseDouble(number);
    }
}
