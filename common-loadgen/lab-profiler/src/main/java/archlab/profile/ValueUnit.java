package archlab.profile;

import java.util.Locale;

/** The unit of a {@link TopTable}'s values, and how {@code pprof -top} would print them. */
public enum ValueUnit {

    /** Nanoseconds, printed as {@code 12ns}, {@code 3.4us}, {@code 100ms}, {@code 481.67s}. */
    NANOSECONDS,

    /** Bytes, printed as {@code 512B}, {@code 2613.76kB}, {@code 7.05MB}, {@code 1.2GB} (binary: 1 kB = 1024 B, as pprof). */
    BYTES,

    /** A plain count, printed as an integer when whole. */
    COUNT;

    /**
     * @param value an amount in this unit
     * @return it as pprof prints it: {@code "0"} for zero, otherwise up to two decimals with a unit suffix
     */
    public String format(double value) {
        if (value == 0) {
            return "0";
        }
        return switch (this) {
            case NANOSECONDS -> scaled(value, new double[] {1e9, 1e6, 1e3, 1}, new String[] {"s", "ms", "us", "ns"});
            case BYTES -> scaled(value, new double[] {1L << 30, 1L << 20, 1L << 10, 1}, new String[] {"GB", "MB", "kB", "B"});
            case COUNT -> decimals(value);
        };
    }

    private static String scaled(double value, double[] factors, String[] suffixes) {
        double abs = Math.abs(value);
        for (int i = 0; i < factors.length - 1; i++) {
            if (abs >= factors[i]) {
                return decimals(value / factors[i]) + suffixes[i];
            }
        }
        return decimals(value) + suffixes[suffixes.length - 1];
    }

    /** @return {@code value} with at most two decimals, trailing zeros dropped: 100, 4.1, 512.34 */
    static String decimals(double value) {
        String s = String.format(Locale.ROOT, "%.2f", value);
        if (s.indexOf('.') >= 0) {
            s = s.replaceAll("0+$", "");
            if (s.endsWith(".")) {
                s = s.substring(0, s.length() - 1);
            }
        }
        return s.equals("-0") ? "0" : s;
    }
}
