package archlab.claims;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * What one attempt of one claim feeds a solution: a customer, skus, unit prices, and the claim's deadlines, stub
 * latencies and timing offsets, each drawn within a range that keeps the claim's meaning. A solution that recognises
 * a claim by its inputs ("cust", "sku-a", 1999 cents, a 200 ms deadline, a 300 ms charge) and answers that claim
 * alone then recognises nothing: every attempt of every grade draws them anew, from the run's printed seed.
 *
 * <p>Contract: every value is a pure function of ({@code seed}, {@code claimId}, {@code attempt}) and, for a named
 * draw ({@link #millis}, {@link #between}), of its name and range — never of the order of the draws, nor of the
 * thread that asks. So the same seed, claim and attempt give the same inputs, and regrading with the run's seed
 * ({@code -Dgrade.seed=N}) feeds a solution what it was fed. Named draws are remembered, so {@link #describe()}
 * states every value the claim used.
 *
 * <p>Thread-safety: safe to share between threads; the fixed values are final, the named draws are computed from
 * their name alone and remembered in a concurrent map.
 */
public final class ClaimInputs {

    /** The seed of the convenience judgements that take none ({@link Judgement#of(Claim, Checkpoint)}): fixed, for tests. */
    public static final long FIXED_SEED = 12L;
    /** The range of a unit price, cents. */
    static final long MIN_PRICE_CENTS = 500;
    static final long MAX_PRICE_CENTS = 9_999;

    private final long seed;
    private final String claimId;
    private final int attempt;
    private final long key;
    private final String customer;
    private final String sku;
    private final String otherSku;
    private final long unitPriceCents;
    private final long otherUnitPriceCents;
    private final Map<String, String> drawn = new ConcurrentSkipListMap<>();

    private ClaimInputs(long seed, String claimId, int attempt) {
        this.seed = seed;
        this.claimId = Objects.requireNonNull(claimId, "claimId");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt counts from 1, was " + attempt);
        }
        this.attempt = attempt;
        this.key = mix(mix(seed ^ hash(claimId)) + attempt);
        SplittableRandom random = new SplittableRandom(key);
        this.customer = "c-" + base36(random.nextLong(), 9);
        this.sku = "s-" + base36(random.nextLong(), 6);
        String other;
        do {
            other = "s-" + base36(random.nextLong(), 6);
        } while (other.equals(sku));
        this.otherSku = other;
        this.unitPriceCents = random.nextLong(MIN_PRICE_CENTS, MAX_PRICE_CENTS + 1);
        this.otherUnitPriceCents = random.nextLong(MIN_PRICE_CENTS, MAX_PRICE_CENTS + 1);
    }

    /**
     * @param seed    the run's seed (printed by the run, {@code -Dgrade.seed} to reuse it)
     * @param claimId the claim's id: two claims of one run get unrelated inputs
     * @param attempt the attempt of the judgement, from 1: an attempt judged again gets new inputs
     * @throws IllegalArgumentException for an attempt below 1
     */
    public static ClaimInputs of(long seed, String claimId, int attempt) {
        return new ClaimInputs(seed, claimId, attempt);
    }

    public long seed() {
        return seed;
    }

    public String claimId() {
        return claimId;
    }

    public int attempt() {
        return attempt;
    }

    /** @return the customer every order of the claim is created for, e.g. {@code c-1x9f3k0qa} */
    public String customer() {
        return customer;
    }

    /** @return the sku of a book order's one line, e.g. {@code s-p0k3zz} */
    public String sku() {
        return sku;
    }

    /** @return a second sku, never {@link #sku()}, for a claim whose order has two lines */
    public String otherSku() {
        return otherSku;
    }

    /** @return the unit price of {@link #sku()}, cents, {@value #MIN_PRICE_CENTS}..{@value #MAX_PRICE_CENTS} */
    public long unitPriceCents() {
        return unitPriceCents;
    }

    /** @return the unit price of {@link #otherSku()}, cents, in the same range */
    public long otherUnitPriceCents() {
        return otherUnitPriceCents;
    }

    /** @return a book order's lines: one unit of {@link #sku()} (the inventory audits count one unit per order) */
    public List<OrderPort.Line> bookLines() {
        return List.of(new OrderPort.Line(sku, 1, unitPriceCents));
    }

    /**
     * @return two lines, {@link #sku()} and {@link #otherSku()}, each of a drawn quantity 1..3 (for claims whose
     *         arithmetic does not count units)
     */
    public List<OrderPort.Line> twoLines() {
        return List.of(new OrderPort.Line(sku, (int) between("quantity", 1, 3), unitPriceCents),
                new OrderPort.Line(otherSku, (int) between("other quantity", 1, 3), otherUnitPriceCents));
    }

    /**
     * @param name what the value is, e.g. {@code "charge"}: the same name and range give the same value in this
     *             attempt; {@link #describe()} states it under this name
     * @return a whole number of milliseconds in {@code [min, max]}
     */
    public Duration millis(String name, long min, long max) {
        long ms = draw(name, min, max);
        drawn.put(name, ms + " ms");
        return Duration.ofMillis(ms);
    }

    /** @return a number in {@code [min, max]} drawn for {@code name}, as {@link #millis} draws */
    public long between(String name, long min, long max) {
        long n = draw(name, min, max);
        drawn.put(name, Long.toString(n));
        return n;
    }

    /** @return a seed for the claim's own seeded faults (which calls fail), drawn for {@code name} */
    public long faultSeed(String name) {
        long s = mix(key ^ hash("fault " + name));
        drawn.put(name, "seed " + Long.toHexString(s));
        return s;
    }

    private long draw(String name, long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException(name + ": min " + min + " > max " + max);
        }
        return new SplittableRandom(mix(key ^ hash(name))).nextLong(min, max + 1);
    }

    /** @return the inputs this attempt used: the fixed values and every named draw so far */
    public String describe() {
        StringBuilder sb = new StringBuilder("inputs of seed ").append(seed).append(" attempt ").append(attempt)
                .append(": customer ").append(customer).append(", ").append(sku).append(" at ").append(unitPriceCents)
                .append(" cents, ").append(otherSku).append(" at ").append(otherUnitPriceCents).append(" cents");
        drawn.forEach((name, value) -> sb.append(", ").append(name).append(' ').append(value));
        return sb.toString();
    }

    /** @return {@code verdict} with {@link #describe()} appended to what it measured */
    ClaimVerdict stated(ClaimVerdict verdict) {
        return new ClaimVerdict(verdict.outcome(), verdict.measured() + " [" + describe() + "]");
    }

    @Override
    public String toString() {
        return "ClaimInputs[" + claimId + ", " + describe() + "]";
    }

    private static String base36(long bits, int length) {
        String s = Long.toString(bits >>> 1, 36);
        s = s.length() >= length ? s.substring(s.length() - length) : "0".repeat(length - s.length()) + s;
        return s;
    }

    /** FNV-1a, 64 bits, over the UTF-8 bytes: the same on every JVM, so a seed regrades with the same inputs anywhere. */
    private static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** SplitMix64's finaliser: a bijective scramble of 64 bits. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
