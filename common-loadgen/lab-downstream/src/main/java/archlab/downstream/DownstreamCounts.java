package archlab.downstream;

/**
 * A snapshot of what the three stubs of a run did, for the report. Built by {@link #builder()}.
 *
 * @param inventoryCalls  inventory calls (reserve and release)
 * @param paymentCalls    payment calls
 * @param notifyCalls     notify calls
 * @param injectedErrors  calls of all three stubs that ended with an injected error
 * @param timeouts        calls of all three stubs that ended with {@link DownstreamTimeoutException}
 * @param charges         money movements ({@link PaymentLedger#charges()})
 * @param doubleCharges   charges beyond the first per order ({@link PaymentLedger#doubleCharges()})
 * @param replays         charges answered from an idempotency key ({@link PaymentLedger#replays()})
 * @param redeliveries    notifications delivered again ({@link NotifierStub#redeliveries()})
 * @param paymentPool     what the payment provider's {@link ConnectionPool} did; {@code null} when it has none
 */
public record DownstreamCounts(
        long inventoryCalls,
        long paymentCalls,
        long notifyCalls,
        long injectedErrors,
        long timeouts,
        long charges,
        long doubleCharges,
        long replays,
        long redeliveries,
        ConnectionPool.Snapshot paymentPool) {

    /** @return a builder of counts of stubs that did nothing: every count 0, no pool in front of the payment stub */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return one report line, e.g.
     *         {@code downstream inventory=200 payment=100 notify=100 errors=0 timeouts=0 charges=100 double_charges=0 replays=0 redeliveries=0}
     */
    public String reportLine() {
        return "downstream inventory=" + inventoryCalls + " payment=" + paymentCalls + " notify=" + notifyCalls
                + " errors=" + injectedErrors + " timeouts=" + timeouts + " charges=" + charges
                + " double_charges=" + doubleCharges + " replays=" + replays + " redeliveries=" + redeliveries;
    }

    /** Builds {@link DownstreamCounts} count by count; a count not set is 0, the pool null. Not thread-safe. */
    public static final class Builder {
        private long inventoryCalls;
        private long paymentCalls;
        private long notifyCalls;
        private long injectedErrors;
        private long timeouts;
        private long charges;
        private long doubleCharges;
        private long replays;
        private long redeliveries;
        private ConnectionPool.Snapshot paymentPool;

        private Builder() {
        }

        /** @see DownstreamCounts#inventoryCalls() */
        public Builder inventoryCalls(long n) { inventoryCalls = n; return this; }

        /** @see DownstreamCounts#paymentCalls() */
        public Builder paymentCalls(long n) { paymentCalls = n; return this; }

        /** @see DownstreamCounts#notifyCalls() */
        public Builder notifyCalls(long n) { notifyCalls = n; return this; }

        /** @see DownstreamCounts#injectedErrors() */
        public Builder injectedErrors(long n) { injectedErrors = n; return this; }

        /** @see DownstreamCounts#timeouts() */
        public Builder timeouts(long n) { timeouts = n; return this; }

        /** @see DownstreamCounts#charges() */
        public Builder charges(long n) { charges = n; return this; }

        /** @see DownstreamCounts#doubleCharges() */
        public Builder doubleCharges(long n) { doubleCharges = n; return this; }

        /** @see DownstreamCounts#replays() */
        public Builder replays(long n) { replays = n; return this; }

        /** @see DownstreamCounts#redeliveries() */
        public Builder redeliveries(long n) { redeliveries = n; return this; }

        /** @see DownstreamCounts#paymentPool() */
        public Builder paymentPool(ConnectionPool.Snapshot pool) { paymentPool = pool; return this; }

        /** @return the DownstreamCounts */
        public DownstreamCounts build() {
            return new DownstreamCounts(inventoryCalls, paymentCalls, notifyCalls, injectedErrors, timeouts, charges,
                    doubleCharges, replays, redeliveries, paymentPool);
        }
    }
}
