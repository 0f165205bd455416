package archlab.downstream;

/**
 * A snapshot of what the three stubs of a run did, for the report.
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

    /** Counts of stubs with no pool in front. */
    public DownstreamCounts(long inventoryCalls, long paymentCalls, long notifyCalls, long injectedErrors, long timeouts,
                            long charges, long doubleCharges, long replays, long redeliveries) {
        this(inventoryCalls, paymentCalls, notifyCalls, injectedErrors, timeouts, charges, doubleCharges, replays,
                redeliveries, null);
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
}
