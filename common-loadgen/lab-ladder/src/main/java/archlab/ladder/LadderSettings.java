package archlab.ladder;

import archlab.db.ladder.LadderDataSet;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * What {@code -Dladder} runs, from the command's {@code -Dladder.*} properties; every one has a default, and a bad or
 * unknown one stops the run with its name and what it accepts.
 *
 * <pre>
 * -Dladder.orders=1000000        orders in the data set ({@value LadderDataSet#MIN_ORDERS}..{@value LadderDataSet#MAX_ORDERS}); CI: 100000
 * -Dladder.rebuild               build the data set again even when the kept one has this size
 * -Dladder.rungs=start,keep-alive the rungs to run (default: the whole ladder), by name
 * -Dladder.rate=400              requests per second, every rung (1..5000)
 * -Dladder.seconds=3             the measured phase of each rung (1..600); a warm-up of {@value #WARMUP_SECONDS} s before it
 * </pre>
 *
 * @param orders  orders in the data set
 * @param rebuild whether to build it again
 * @param rungs   the rungs to run, in the ladder's order
 * @param rate    requests per second
 * @param measure each rung's measured phase
 */
public record LadderSettings(int orders, boolean rebuild, List<Rung> rungs, int rate, Duration measure) {

    /** The data set's default size: the "at least a million orders". */
    public static final int DEFAULT_ORDERS = 1_000_000;
    /** The default rate: about what the article's one interface took per instance. */
    public static final int DEFAULT_RATE = 400;
    /** The most requests per second a rung may be offered. */
    public static final int MAX_RATE = 5_000;
    /** Each rung's warm-up, s: the JIT and the pool, before the measured phase. */
    public static final int WARMUP_SECONDS = 2;
    private static final Set<String> KNOWN = Set.of("ladder", "ladder.orders", "ladder.rebuild", "ladder.rungs",
            "ladder.rate", "ladder.seconds");

    public LadderSettings {
        LadderDataSet.checkedOrders(orders);
        rungs = List.copyOf(rungs);
        if (rungs.isEmpty()) {
            throw new IllegalArgumentException("ladder.rungs names no rung");
        }
        if (rate < 1 || rate > MAX_RATE) {
            throw new IllegalArgumentException("ladder.rate must be 1.." + MAX_RATE + " requests per second, was " + rate);
        }
        if (measure.isNegative() || measure.getSeconds() < 1 || measure.getSeconds() > 600) {
            throw new IllegalArgumentException("ladder.seconds must be 1..600, was " + measure.getSeconds());
        }
    }

    /** @return the settings the properties say */
    public static LadderSettings from(Properties p) {
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("ladder.") && !KNOWN.contains(name)) {
                throw new IllegalArgumentException("unknown property -D" + name + ": the ladder reads " + KNOWN.stream().sorted().toList());
            }
        }
        int orders = number(p, "ladder.orders", DEFAULT_ORDERS);
        int rate = number(p, "ladder.rate", DEFAULT_RATE);
        int seconds = number(p, "ladder.seconds", 3);
        String rebuild = p.getProperty("ladder.rebuild");
        if (rebuild != null && !rebuild.isEmpty() && !rebuild.equals("true")) {
            throw new IllegalArgumentException("-Dladder.rebuild takes no value (or true), was '" + rebuild + "'");
        }
        // an unknown name stops the run (Rung.named names the ladder's rungs); the chosen run in the ladder's order
        Set<Rung> named = java.util.Arrays.stream(p.getProperty("ladder.rungs", "").split(",")).map(String::trim)
                .filter(n -> !n.isEmpty()).map(Rung::named).collect(java.util.stream.Collectors.toSet());
        List<Rung> rungs = named.isEmpty() ? Rung.LADDER : Rung.LADDER.stream().filter(named::contains).toList();
        return new LadderSettings(orders, rebuild != null, rungs, rate, Duration.ofSeconds(seconds));
    }

    private static int number(Properties p, String name, int otherwise) {
        String v = p.getProperty(name);
        if (v == null) {
            return otherwise;
        }
        try {
            return Integer.parseInt(v.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + name + " must be a whole number, was '" + v + "'");
        }
    }
}
