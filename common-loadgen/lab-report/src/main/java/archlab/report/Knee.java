package archlab.report;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The knee of a capacity curve, as the requirement defines it: the <b>highest offered rate whose goodput
 * is at least 99% of what was offered and whose p99 is at most twice the pay floor</b> (the synchronous
 * floor of one pay: Σ downstream latencies). Beyond the knee the service either drops work or makes its
 * callers wait for something other than the downstream calls themselves.
 *
 * <p>{@link #find} is a pure function of the rows: no clock, no I/O. Immutable and thread-safe.
 *
 * <p>JSON: the {@link Rule} is unwrapped, its figures lie between {@code ratePerSecond} and {@code qualifying}.
 *
 * @param ratePerSecond    the knee, req/s; {@code null} when no swept rate qualifies
 * @param rule             the conditions a rate had to meet
 * @param qualifying       every swept rate that meets both conditions, ascending
 * @param nonMonotone      rates below the knee that did <em>not</em> qualify (noise, or a curve that is not
 *                         monotone): the knee is then less certain than it looks; ascending
 * @param firstPastKnee    the lowest swept rate above the knee (the lowest rate of all when there is no knee);
 *                         {@code null} when the knee is the highest rate swept
 */
public record Knee(
        Integer ratePerSecond,
        @JsonUnwrapped Rule rule,
        List<Integer> qualifying,
        List<Integer> nonMonotone,
        Integer firstPastKnee) {

    /** A rate qualifies only if at least this share of its offered requests completed. */
    public static final double GOODPUT_FLOOR = 0.99;
    /** A rate qualifies only if its p99 is at most this many pay floors. */
    public static final int P99_PAY_FLOORS = 2;

    public Knee {
        qualifying = List.copyOf(qualifying);
        nonMonotone = List.copyOf(nonMonotone);
    }

    /**
     * The conditions a swept rate must meet to qualify.
     *
     * @param goodputFloor     the goodput a rate needs, 0..1 ({@value #GOODPUT_FLOOR})
     * @param p99CeilingMicros the p99 a rate may not exceed: 2 × pay floor, µs
     * @param definition       the definition in words, with the numbers filled in
     */
    public record Rule(double goodputFloor, long p99CeilingMicros, String definition) {
    }

    /**
     * Finds the knee.
     *
     * @param rows          one row per swept rate, any order; rates must be distinct
     * @param payFloorNanos the synchronous floor of one pay, ns; positive
     * @return the knee (possibly none)
     * @throws IllegalArgumentException if {@code payFloorNanos} is not positive or two rows share a rate
     */
    public static Knee find(List<SweepRow> rows, long payFloorNanos) {
        if (payFloorNanos <= 0) {
            throw new IllegalArgumentException("payFloorNanos must be positive, was " + payFloorNanos);
        }
        List<SweepRow> sorted = rows.stream().sorted(Comparator.comparingInt(SweepRow::ratePerSecond)).toList();
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).ratePerSecond() == sorted.get(i - 1).ratePerSecond()) {
                throw new IllegalArgumentException("two rows for " + sorted.get(i).ratePerSecond() + " req/s");
            }
        }
        long ceilingMicros = P99_PAY_FLOORS * payFloorNanos / 1_000L;
        List<Integer> qualifying = new ArrayList<>();
        for (SweepRow r : sorted) {
            if (qualifies(r, ceilingMicros)) {
                qualifying.add(r.ratePerSecond());
            }
        }
        Integer knee = qualifying.isEmpty() ? null : qualifying.get(qualifying.size() - 1);
        List<Integer> nonMonotone = new ArrayList<>();
        Integer past = null;
        for (SweepRow r : sorted) {
            if (knee != null && r.ratePerSecond() < knee && !qualifying.contains(r.ratePerSecond())) {
                nonMonotone.add(r.ratePerSecond());
            }
            if (past == null && (knee == null || r.ratePerSecond() > knee)) {
                past = r.ratePerSecond();
            }
        }
        String definition = String.format(Locale.ROOT,
                "knee = the highest offered rate with goodput (completed / offered) >= %.0f%% and p99 <= %d x pay floor"
                        + " (%d x %.3f ms = %.3f ms)",
                GOODPUT_FLOOR * 100, P99_PAY_FLOORS, P99_PAY_FLOORS, payFloorNanos / 1e6, ceilingMicros / 1e3);
        return new Knee(knee, new Rule(GOODPUT_FLOOR, ceilingMicros, definition), qualifying, nonMonotone, past);
    }

    /** @return whether {@code row} meets both conditions against a p99 ceiling of {@code p99CeilingMicros} */
    public static boolean qualifies(SweepRow row, long p99CeilingMicros) {
        return row.offered() > 0 && row.completed() >= GOODPUT_FLOOR * row.offered()
                && row.p99Micros() <= p99CeilingMicros;
    }

    /** @return whether some swept rate qualified */
    public boolean found() {
        return ratePerSecond != null;
    }

    /** @return the knee in one plain sentence, or that there is none */
    public String describe() {
        if (ratePerSecond == null) {
            return String.format(Locale.ROOT,
                    "no knee: no swept rate had goodput >= %.0f%% with p99 <= %.3f ms; sweep lower rates (-Dlab.sweep.rates=…)",
                    rule.goodputFloor() * 100, rule.p99CeilingMicros() / 1e3);
        }
        String s = "knee: " + ratePerSecond + " req/s";
        if (!nonMonotone.isEmpty()) {
            s += " (but " + nonMonotone + " req/s below it did not qualify: the curve is noisy here; repeat the sweep)";
        }
        return s;
    }
}
