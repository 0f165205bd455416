package archlab.downstream;

import java.time.Duration;

/**
 * How the three downstream stubs of a run behave: their latencies and fault rates. One seed drives all
 * fault decisions; each fault kind gets its own stream of it ({@link ErrorInjection#forStream}), so
 * different kinds fail unrelated calls, and the same calls fail on every run with the same seed.
 *
 * <p>Immutable; change a copy with the {@code with...} methods, or build one setting by setting with
 * {@link #builder()}:
 * <pre>{@code
 * DownstreamSettings.BOOK.withPaymentLostReplyRate(0.01)
 * }</pre>
 *
 * @param inventoryLatency     reply latency of every inventory call; not negative
 * @param paymentLatency       reply latency of every payment call; not negative
 * @param notifyLatency        reply latency of every notify call; not negative
 * @param inventoryErrorRate   fraction of inventory calls refused, in [0, 1]
 * @param paymentDeclineRate   fraction of payment calls declined before money moves, in [0, 1]
 * @param paymentLostReplyRate fraction of payment calls that charge and then lose the reply, in [0, 1]
 * @param notifyErrorRate      fraction of notify calls refused, in [0, 1]
 * @param seed                 the seed of all fault decisions
 */
public record DownstreamSettings(
        Duration inventoryLatency,
        Duration paymentLatency,
        Duration notifyLatency,
        double inventoryErrorRate,
        double paymentDeclineRate,
        double paymentLostReplyRate,
        double notifyErrorRate,
        long seed) {

    /** The seed of {@link #BOOK} and {@link #INSTANT}. */
    public static final long DEFAULT_SEED = 42L;

    /** Zero latency, no faults: for unit tests of services. */
    public static final DownstreamSettings INSTANT = builder().build();

    /** The book's stubs: inventory 2 ms, payment 4 ms, notify 2 ms, no faults. */
    public static final DownstreamSettings BOOK = builder()
            .inventoryLatency(Duration.ofMillis(2))
            .paymentLatency(Duration.ofMillis(4))
            .notifyLatency(Duration.ofMillis(2))
            .build();

    /** Fault stream numbers, one per fault kind; changing them changes which calls fail. */
    private static final int INVENTORY_ERRORS = 1;
    private static final int PAYMENT_DECLINES = 2;
    private static final int PAYMENT_LOST_REPLIES = 3;
    private static final int NOTIFY_ERRORS = 4;

    /** @return a builder of {@link #INSTANT}'s stubs: zero latency, no faults, {@link #DEFAULT_SEED} */
    public static Builder builder() {
        return new Builder();
    }

    public DownstreamSettings {
        requireLatency("inventoryLatency", inventoryLatency);
        requireLatency("paymentLatency", paymentLatency);
        requireLatency("notifyLatency", notifyLatency);
        requireRate("inventoryErrorRate", inventoryErrorRate);
        requireRate("paymentDeclineRate", paymentDeclineRate);
        requireRate("paymentLostReplyRate", paymentLostReplyRate);
        requireRate("notifyErrorRate", notifyErrorRate);
    }

    public DownstreamSettings withLatencies(Duration inventory, Duration payment, Duration notify) {
        return new DownstreamSettings(inventory, payment, notify,
                inventoryErrorRate, paymentDeclineRate, paymentLostReplyRate, notifyErrorRate, seed);
    }

    public DownstreamSettings withPaymentDeclineRate(double rate) {
        return new DownstreamSettings(inventoryLatency, paymentLatency, notifyLatency,
                inventoryErrorRate, rate, paymentLostReplyRate, notifyErrorRate, seed);
    }

    public DownstreamSettings withPaymentLostReplyRate(double rate) {
        return new DownstreamSettings(inventoryLatency, paymentLatency, notifyLatency,
                inventoryErrorRate, paymentDeclineRate, rate, notifyErrorRate, seed);
    }

    /** @return the inventory stub's behaviour: constant latency, refusals at {@link #inventoryErrorRate()} */
    public StubBehaviour inventoryBehaviour() {
        return new StubBehaviour(LatencyModel.constant(inventoryLatency),
                ErrorInjection.forStream(seed, INVENTORY_ERRORS, inventoryErrorRate));
    }

    /** @return the payment stub's behaviour: constant latency, declines at {@link #paymentDeclineRate()} */
    public StubBehaviour paymentBehaviour() {
        return new StubBehaviour(LatencyModel.constant(paymentLatency),
                ErrorInjection.forStream(seed, PAYMENT_DECLINES, paymentDeclineRate));
    }

    /** @return which payment calls lose their reply after charging, at {@link #paymentLostReplyRate()} */
    public ErrorInjection paymentLostReplies() {
        return ErrorInjection.forStream(seed, PAYMENT_LOST_REPLIES, paymentLostReplyRate);
    }

    /** @return the notifier stub's behaviour: constant latency, refusals at {@link #notifyErrorRate()} */
    public StubBehaviour notifyBehaviour() {
        return new StubBehaviour(LatencyModel.constant(notifyLatency),
                ErrorInjection.forStream(seed, NOTIFY_ERRORS, notifyErrorRate));
    }

    private static void requireLatency(String name, Duration latency) {
        if (latency == null || latency.isNegative()) {
            throw new IllegalArgumentException(name + " must not be null or negative, was " + latency);
        }
    }

    private static void requireRate(String name, double rate) {
        if (!(rate >= 0.0 && rate <= 1.0)) { // also rejects NaN
            throw new IllegalArgumentException(name + " must be in [0, 1], was " + rate);
        }
    }

    /** Builds {@link DownstreamSettings} setting by setting, from no latency and no fault; {@link #build} checks them. Not thread-safe. */
    public static final class Builder {
        private Duration inventoryLatency = Duration.ZERO;
        private Duration paymentLatency = Duration.ZERO;
        private Duration notifyLatency = Duration.ZERO;
        private double inventoryErrorRate;
        private double paymentDeclineRate;
        private double paymentLostReplyRate;
        private double notifyErrorRate;
        private long seed = DEFAULT_SEED;

        private Builder() {
        }

        /** @see DownstreamSettings#inventoryLatency() */
        public Builder inventoryLatency(Duration d) { inventoryLatency = d; return this; }

        /** @see DownstreamSettings#paymentLatency() */
        public Builder paymentLatency(Duration d) { paymentLatency = d; return this; }

        /** @see DownstreamSettings#notifyLatency() */
        public Builder notifyLatency(Duration d) { notifyLatency = d; return this; }

        /** @see DownstreamSettings#inventoryErrorRate() */
        public Builder inventoryErrorRate(double rate) { inventoryErrorRate = rate; return this; }

        /** @see DownstreamSettings#paymentDeclineRate() */
        public Builder paymentDeclineRate(double rate) { paymentDeclineRate = rate; return this; }

        /** @see DownstreamSettings#paymentLostReplyRate() */
        public Builder paymentLostReplyRate(double rate) { paymentLostReplyRate = rate; return this; }

        /** @see DownstreamSettings#notifyErrorRate() */
        public Builder notifyErrorRate(double rate) { notifyErrorRate = rate; return this; }

        /** @see DownstreamSettings#seed() */
        public Builder seed(long s) { seed = s; return this; }

        /**
         * @return the settings
         * @throws IllegalArgumentException if a latency is negative or a rate is outside [0, 1] (the message names it)
         */
        public DownstreamSettings build() {
            return new DownstreamSettings(inventoryLatency, paymentLatency, notifyLatency, inventoryErrorRate,
                    paymentDeclineRate, paymentLostReplyRate, notifyErrorRate, seed);
        }
    }
}
