package archlab.serve;

import archlab.report.MoneyEvidence;
import archlab.report.OrderAudit;
import java.util.List;

/**
 * A {@link CrashSeries}' outcome. Immutable.
 *
 * @param acked       what the clients were answered over all kills
 * @param losses      what the kills lost
 * @param books       the books after the last start settled: in sums (charged but not PAID, double charges, PAID not
 *                    notified, leaks) and order by order
 * @param settled     whether the last start left nothing PAYING and every PAID order notified in time, and when
 */
public record CrashSeriesResult(CrashSeries.CrashSettings settings, List<CrashSeries.Kill> kills, CrashSeries.Acknowledged acked,
                                CrashSeries.Losses losses, CrashSeries.Books books, CrashSeries.Settled settled) {

    /** @return the books after the last start settled, in sums */
    public MoneyEvidence money() {
        return books.money();
    }

    /** @return the books after the last start settled, order by order */
    public OrderAudit audit() {
        return books.audit();
    }

    /** @return kills that landed between a charge and its PAID commit; negative when the store could not say */
    public long killsInWindow() {
        return kills.stream().anyMatch(k -> k.ending().chargedInWindow() < 0) ? -1
                : kills.stream().filter(k -> k.ending().chargedInWindow() > 0).count();
    }

    /** @return acknowledged work lost: creates and pays */
    public long lost() {
        return losses.creates() + losses.pays();
    }

    /**
     * @return {@code crash kills=N lost=L duplicates=D charged_not_paid=C paid_not_charged=P …}: the headline, its
     *         money figures from the audit per order, and how many kills landed between a charge and its commit
     */
    public String summaryLine() {
        return "crash kills=" + kills.size() + " lost=" + lost() + " duplicates=" + losses.duplicates()
                + " charged_not_paid=" + audit().chargedNotPaid() + " paid_not_charged=" + audit().paidNotCharged()
                + " charged_twice=" + audit().chargedTwice() + " paid_not_notified=" + audit().paidNotNotified()
                + " notified_twice=" + audit().notifiedTwice() + " reservations_leaked_orders="
                + MoneyEvidence.show(audit().reservationsLeakedOrders())
                + " kills_in_window=" + (killsInWindow() < 0 ? "n/a" : Long.toString(killsInWindow()));
    }

    /** @return everything the series measured, in one line */
    public String detailLine() {
        long first = settings.schedule().firstSeed();
        return "crash store=" + settings.child().store() + (settings.lateCharges() == null ? "" : " late_charges="
                + settings.lateCharges()) + " kills=" + kills.size() + " seeds=" + first + ".."
                + (first + kills.size() - 1) + " acked_creates=" + acked.creates() + " acked_pays=" + acked.pays()
                + " lost_creates=" + losses.creates() + " lost_pays=" + losses.pays()
                + " unknown_status=" + losses.unknownStatus() + " duplicates=" + losses.duplicates()
                + " redeliveries=" + losses.redeliveries() + " charged_not_paid=" + money().chargedButNotPaid()
                + " double_charges=" + money().doubleCharges() + " paid_not_notified=" + money().paidButNotNotified()
                + " reservations_leaked=" + money().reservationsLeaked() + " charges=" + money().charges()
                + " charge_replays=" + losses.chargeReplays()
                + " paid=" + money().paidOrders() + " refused=" + acked.refused() + " server_errors=" + acked.serverErrors()
                + " left_paying=" + kills.stream().mapToLong(k -> Math.max(0, k.ending().left().paying())).sum()
                + " left_outbox=" + kills.stream().mapToLong(k -> Math.max(0, k.ending().left().outboxOpen())).sum()
                + " settled=" + settled.settled() + " settle=" + settled.took().toMillis() + "ms";
    }
}
