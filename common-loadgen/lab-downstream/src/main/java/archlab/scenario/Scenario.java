package archlab.scenario;

import archlab.text.NearestName;
import archlab.downstream.ConnectionPool;
import archlab.downstream.Downstream;
import archlab.downstream.ErrorInjection;
import archlab.downstream.FaultModel;
import archlab.downstream.InventoryStub;
import archlab.downstream.LatencyModel;
import archlab.downstream.NotifierStub;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.loadgen.ClientRetryPolicy;
import archlab.loadgen.LoadSpec;
import archlab.scenario.ScenarioClock.Window;
import archlab.timeline.Recovery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One downstream world of chapter 12.3's table. Every checkpoint runs the very same scenarios: faults
 * are seeded and indexed by call (the k-th payment call fails on every checkpoint, whatever its
 * thread interleaving), and time windows are measured from the run's start, under the identical load.
 *
 * @param name                 short name, a table row key
 * @param summary              one line for the table's legend
 * @param inventoryLatency     per reserve/release call
 * @param paymentLatency       per charge, the usual case
 * @param paymentTailFraction  fraction of charges (by seeded call index) that take {@code paymentTailLatency}
 * @param paymentTailLatency   the heavy tail: far slower than the request timeout
 * @param paymentStall         a window in which every charge hangs until the window closes; null for none
 * @param notifyLatency        per notify call
 * @param inventoryErrorRate   seeded per-call inventory errors
 * @param paymentDeclineRate   clean declines, before any money moves
 * @param paymentLostReplyRate the ambiguous case: the provider charged, then the reply was lost
 * @param notifyErrorRate      seeded per-call notifier errors
 * @param notifierDown         a window in which every notify call fails; null for none
 * @param seed                 seeds every fault stream
 * @param paymentSlow          the trigger: a window in which every charge takes {@code paymentSlowLatency}; null for none
 * @param paymentSlowLatency   a charge's latency inside {@code paymentSlow}
 * @param paymentPool          the connection pool the payment provider sits behind; null for as many calls at once as arrive
 * @param clientRetries        how the upstream callers retry; {@link ClientRetryPolicy#NONE} for never
 * @param rate                 the offered load, req/s, in place of the run's; 0 for the run's (the book's 1,500)
 */
public record Scenario(
        String name,
        String summary,
        Duration inventoryLatency,
        Duration paymentLatency,
        double paymentTailFraction,
        Duration paymentTailLatency,
        Window paymentStall,
        Duration notifyLatency,
        double inventoryErrorRate,
        double paymentDeclineRate,
        double paymentLostReplyRate,
        double notifyErrorRate,
        Window notifierDown,
        long seed,
        Window paymentSlow,
        Duration paymentSlowLatency,
        ConnectionPool.PoolSettings paymentPool,
        ClientRetryPolicy clientRetries,
        int rate) {

    /** How soon after its trigger ends a run must be back to 95 % goodput to count as recovered ({@link Recovery}). */
    public static final Duration RECOVERY_BOUND = Duration.ofMillis(500);

    private static final Duration BOOK_INVENTORY = Duration.ofMillis(2);
    private static final Duration BOOK_PAYMENT = Duration.ofMillis(4);
    private static final Duration BOOK_NOTIFY = Duration.ofMillis(2);
    private static final long SEED = 12_3L;

    public Scenario {
        for (double share : new double[] {paymentTailFraction, inventoryErrorRate, paymentDeclineRate,
                paymentLostReplyRate, notifyErrorRate}) {
            if (!(share >= 0 && share <= 1)) {
                throw new IllegalArgumentException("scenario " + name + ": rates must be in [0, 1], was " + share);
            }
        }
        java.util.Objects.requireNonNull(clientRetries, "clientRetries");
        for (Duration d : new Duration[] {inventoryLatency, paymentLatency, paymentTailLatency, notifyLatency, paymentSlowLatency}) {
            if (d == null || d.isNegative()) {
                throw new IllegalArgumentException("scenario " + name + ": latencies must be zero or positive, was " + d);
            }
        }
    }

    /** The book's downstream: 2 / 4 / 2 ms, nothing fails. */
    public static Scenario normal() {
        return builder("normal", "downstream 2 / 4 / 2 ms, no faults").build();
    }

    /** Payment ten times slower, with a heavy tail far past the timeout and a stall window. */
    public static Scenario slowDownstream() {
        return builder("slow-downstream",
                "payment 10x slower (40 ms), 2% of charges take 1 s, every charge hangs from 1.0 s to 1.5 s")
                .paymentLatency(BOOK_PAYMENT.multipliedBy(10))
                .paymentTail(0.02, Duration.ofSeconds(1))
                .paymentStall(new Window(Duration.ofMillis(1_000), Duration.ofMillis(1_500)))
                .build();
    }

    /** Payment errors (half declines, half charged-then-lost replies), inventory errors, the notifier down for a second. */
    public static Scenario failingDownstream() {
        return builder("failing-downstream",
                "10% of charges fail (5% declined, 5% charged then reply lost), 2% of reserves fail, notifier down 1.0 s-2.0 s")
                .inventoryErrors(0.02)
                .paymentDeclines(0.05)
                .paymentLostReplies(0.05)
                .notifierDown(new Window(Duration.ofMillis(1_000), Duration.ofMillis(2_000)))
                .build();
    }

    /**
     * The notifier down for longer than the whole run, and charge replies lost often: an outage longer than the 1.3 s
     * an outbox relay that counts attempts (8, back-off 10 ms doubling to 1 s) keeps trying, so a table of this
     * scenario shows whether a PAID order's notification outlives the outage, not only whether it outlives a blip.
     */
    public static Scenario longOutage() {
        return builder("long-outage",
                "notifier down 0.0 s-3.5 s (past the end of the run; longer than the 1.3 s an 8-attempt relay keeps trying), 30% of charge replies lost")
                .paymentLostReplies(0.30)
                .notifierDown(new Window(Duration.ZERO, Duration.ofMillis(3_500)))
                .build();
    }

    // tag::retry-storm[]
    /**
     * The source article's incident: a pool fills, callers time out and retry, the retries join the line. Payment sits
     * behind 4 connections as pools ship (a 30 s timeout of the pool's own, for the wait and the call, that knows
     * nothing of the caller's deadline): at 4 ms a charge they serve 1,000 charges/s, and the book's load sends at most
     * 375 (25 % of 1,500/s), so before the trigger the pool is at most 37.5 % busy. The trigger: from 1.0 s to 2.0 s
     * every charge takes 40 ms, and the pool serves 100/s. The callers retry a timed-out, failed or refused request at
     * once, up to 3 attempts, with no budget.
     * A service that must keep its deadlines guards the pool in its own code; the scenario only deploys it.
     */
    public static Scenario retryStorm() {
        return builder("retry-storm",
                "payment behind a 4-connection pool as shipped (its own 30 s timeout, the caller's deadline unseen);"
                        + " charges 40 ms from 1.0 s to 2.0 s; callers retry at once, 3 attempts, no budget;"
                        + " recovered = goodput back to 95% of offered within "
                        + RECOVERY_BOUND.toMillis() + " ms of the trigger's end and staying there")
                .paymentSlow(new Window(Duration.ofMillis(1_000), Duration.ofMillis(2_000)), BOOK_PAYMENT.multipliedBy(10))
                .paymentPool(ConnectionPool.PoolSettings.shipped(4))
                .clientRetries(ClientRetryPolicy.immediately(3))
                .build();
    }
    // end::retry-storm[]

    /**
     * The article's incident, meant to run over HTTP ({@code -Dlab.transport=http}) on Tomcat's defaults: 300 req/s
     * (a fifth of the book's, so that the server is not saturated before the stall and its queue starts near 0), and
     * from 1.0 s to 2.0 s every charge takes 500 ms. A service that holds its threads through the charge (or a lock
     * around it) fills Tomcat's 200 threads, and callers that retry a timed-out request at once (3 attempts, no budget,
     * as {@link #retryStorm()}'s) send more while the server still works on the attempts they left. Not in
     * {@link #catalogue()}: selected by name ({@code -Dscenarios=incident}).
     */
    public static Scenario incident() {
        return builder("incident",
                "the article's incident (run it with -Dlab.transport=http): 300 req/s; every charge takes 500 ms from 1.0 s to 2.0 s; callers retry at once, 3 attempts, no budget; recovered as in retry-storm").rate(300)
                .paymentSlow(new Window(Duration.ofMillis(1_000), Duration.ofMillis(2_000)), Duration.ofMillis(500))
                .clientRetries(ClientRetryPolicy.immediately(3))
                .build();
    }

    /** @return the scenarios outside the catalogue, run only when named: {@link #incident()} */
    public static List<Scenario> byNameOnly() {
        return List.of(incident());
    }

    /** @return normal, slow downstream, failing downstream, long outage, retry storm: the rows of 12.3's table */
    public static List<Scenario> catalogue() {
        return List.of(normal(), slowDownstream(), failingDownstream(), longOutage(), retryStorm());
    }

    /** @return the trigger whose end recovery is judged from ({@link #paymentSlow}), if the scenario has one */
    public java.util.Optional<Window> trigger() {
        return java.util.Optional.ofNullable(paymentSlow);
    }

    /**
     * @param run      a run's measured intervals (live or read back from a saved report)
     * @param interval their length
     * @return how the run came out of this scenario's trigger; empty for a scenario without one
     */
    public java.util.Optional<Recovery> recovery(List<archlab.timeline.Interval> run, Duration interval) {
        return trigger().map(w -> Recovery.judge(run, interval, w.from(), w.to(), RECOVERY_BOUND));
    }

    /** @return the book's load with this scenario's callers ({@link #clientRetries}) and its {@link #rate} if it has one */
    public LoadSpec load(LoadSpec load) {
        return rate > 0 ? load.withRetries(clientRetries).withRate(rate) : load.withRetries(clientRetries);
    }

    /** @return the scenario named {@code name} @throws IllegalArgumentException naming the known ones */
    public static Scenario named(String name) {
        List<Scenario> all = java.util.stream.Stream.concat(catalogue().stream(), byNameOnly().stream()).toList();
        List<String> known = all.stream().map(Scenario::name).toList();
        return all.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown scenario '" + name + "'"
                        + NearestName.among(name, known).map(n -> " (did you mean " + n + "?)").orElse("") + "; known: " + known));
    }

    /**
     * @return fresh stubs for one run of this scenario; windows are measured on {@code timeline}; the payment provider
     *         sits behind the scenario's pool, as pools ship, if it has one
     */
    public Downstream newDownstream(ScenarioClock timeline) {
        FaultModel tail = ErrorInjection.forStream(seed, 11, paymentTailFraction);
        long baseNanos = paymentLatency.toNanos();
        long tailNanos = paymentTailLatency.toNanos();
        Window stall = paymentStall;
        Window slow = paymentSlow;
        Duration slowLatency = paymentSlowLatency;
        LatencyModel payment = callIndex -> {
            if (stall != null && timeline.inside(stall)) {
                return Duration.ofNanos(timeline.untilEndNanos(stall) + baseNanos);
            }
            if (slow != null && timeline.inside(slow)) {
                return slowLatency;
            }
            return Duration.ofNanos(tail.failsCall(callIndex) ? tailNanos : baseNanos);
        };
        FaultModel notifyFaults = ErrorInjection.forStream(seed, 14, notifyErrorRate);
        if (notifierDown != null) {
            Window down = notifierDown;
            notifyFaults = notifyFaults.or(callIndex -> timeline.inside(down));
        }
        return new Downstream(
                new InventoryStub(new StubBehaviour(LatencyModel.constant(inventoryLatency),
                        ErrorInjection.forStream(seed, 12, inventoryErrorRate))),
                new PaymentsStub(new StubBehaviour(payment, ErrorInjection.forStream(seed, 13, paymentDeclineRate)),
                        ErrorInjection.forStream(seed, 15, paymentLostReplyRate),
                        paymentPool),
                new NotifierStub(new StubBehaviour(LatencyModel.constant(notifyLatency), notifyFaults)));
    }

    /** @return the scenario's parameters as printed with the table */
    public List<String> parameters() {
        List<String> p = new ArrayList<>();
        p.add(String.format(Locale.ROOT, "latency inventory=%dms payment=%dms notify=%dms",
                inventoryLatency.toMillis(), paymentLatency.toMillis(), notifyLatency.toMillis()));
        if (paymentTailFraction > 0) {
            p.add(String.format(Locale.ROOT, "payment tail %.1f%% of calls at %dms", 100 * paymentTailFraction,
                    paymentTailLatency.toMillis()));
        }
        if (rate > 0) {
            p.add("offered " + rate + " req/s");
        }
        if (paymentStall != null) {
            p.add("payment stalls " + paymentStall);
        }
        if (inventoryErrorRate + paymentDeclineRate + paymentLostReplyRate + notifyErrorRate > 0) {
            p.add(String.format(Locale.ROOT, "errors inventory=%.1f%% payment_declined=%.1f%% payment_reply_lost=%.1f%% notify=%.1f%%",
                    100 * inventoryErrorRate, 100 * paymentDeclineRate, 100 * paymentLostReplyRate, 100 * notifyErrorRate));
        }
        if (notifierDown != null) {
            p.add("notifier down " + notifierDown);
        }
        if (paymentSlow != null) {
            p.add("payment slow " + paymentSlow + " (" + paymentSlowLatency.toMillis() + "ms per charge)");
        }
        if (paymentPool != null) {
            p.add("payment pool " + paymentPool.describe() + " as shipped (the wait and the call work to the pool's timeout, not the caller's deadline)");
        }
        if (clientRetries.retries()) {
            p.add("client retries " + clientRetries.describe());
        }
        p.add("seed=" + seed);
        return p;
    }

    /**
     * @return a scenario named {@code name}, the book's downstream (2 / 4 / 2 ms), no fault, no trigger, no pool, callers
     *         that never retry, the lab's seed: each call of the builder changes one part of it
     */
    public static Builder builder(String name, String summary) {
        return new Builder(name, summary);
    }

    /** Builds a {@link Scenario} from named parts; not thread-safe, one builder per scenario. */
    public static final class Builder {
        private final String name;
        private final String summary;
        private Duration inventoryLatency = BOOK_INVENTORY;
        private Duration paymentLatency = BOOK_PAYMENT;
        private double paymentTailFraction;
        private Duration paymentTailLatency = Duration.ZERO;
        private Window paymentStall;
        private Duration notifyLatency = BOOK_NOTIFY;
        private double inventoryErrorRate;
        private double paymentDeclineRate;
        private double paymentLostReplyRate;
        private double notifyErrorRate;
        private Window notifierDown;
        private long seed = SEED;
        private Window paymentSlow;
        private Duration paymentSlowLatency = Duration.ZERO;
        private ConnectionPool.PoolSettings paymentPool;
        private ClientRetryPolicy clientRetries = ClientRetryPolicy.NONE;
        private int rate;

        private Builder(String name, String summary) {
            this.name = name;
            this.summary = summary;
        }

        /** @param inventory per reserve/release @param payment per charge, the usual case @param notify per notify */
        public Builder latencies(Duration inventory, Duration payment, Duration notify) {
            this.inventoryLatency = inventory;
            this.paymentLatency = payment;
            this.notifyLatency = notify;
            return this;
        }

        public Builder paymentLatency(Duration perCharge) {
            this.paymentLatency = perCharge;
            return this;
        }

        /** @param fraction of charges, by seeded call index, that take {@code latency} */
        public Builder paymentTail(double fraction, Duration latency) {
            this.paymentTailFraction = fraction;
            this.paymentTailLatency = latency;
            return this;
        }

        /** @param window every charge inside it hangs until it closes; null for none */
        public Builder paymentStall(Window window) {
            this.paymentStall = window;
            return this;
        }

        public Builder inventoryErrors(double rate) {
            this.inventoryErrorRate = rate;
            return this;
        }

        public Builder paymentDeclines(double rate) {
            this.paymentDeclineRate = rate;
            return this;
        }

        /** @param rate of charges the provider makes and then loses the reply of */
        public Builder paymentLostReplies(double rate) {
            this.paymentLostReplyRate = rate;
            return this;
        }

        public Builder notifyErrors(double rate) {
            this.notifyErrorRate = rate;
            return this;
        }

        /** @param window every notify call inside it fails; null for none */
        public Builder notifierDown(Window window) {
            this.notifierDown = window;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** The trigger: every charge inside {@code window} takes {@code latency}. */
        public Builder paymentSlow(Window window, Duration latency) {
            this.paymentSlow = window;
            this.paymentSlowLatency = latency;
            return this;
        }

        public Builder paymentPool(ConnectionPool.PoolSettings pool) {
            this.paymentPool = pool;
            return this;
        }

        public Builder clientRetries(ClientRetryPolicy retries) {
            this.clientRetries = retries;
            return this;
        }

        /** @param perSecond the offered load in place of the run's (0: the run's) */
        public Builder rate(int perSecond) {
            this.rate = perSecond;
            return this;
        }

        /** @throws IllegalArgumentException for a rate outside [0, 1] or a negative latency, naming the scenario */
        public Scenario build() {
            return new Scenario(name, summary, inventoryLatency, paymentLatency, paymentTailFraction, paymentTailLatency,
                    paymentStall, notifyLatency, inventoryErrorRate, paymentDeclineRate, paymentLostReplyRate,
                    notifyErrorRate, notifierDown, seed, paymentSlow, paymentSlowLatency, paymentPool, clientRetries, rate);
        }
    }
}
