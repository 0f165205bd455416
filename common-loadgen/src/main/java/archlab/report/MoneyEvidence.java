package archlab.report;

/**
 * What the payment ledger and the order table say about money after a run.
 *
 * @param charges               money movements the provider accepted
 * @param distinctOrdersCharged orders charged at least once
 * @param doubleCharges         charges beyond the first per order
 * @param paidOrders            orders the service marked PAID
 * @param chargedButNotPaid     orders charged (and not refunded) that are not PAID: the customer paid, the shop doesn't know
 */
public record MoneyEvidence(long charges, long distinctOrdersCharged, long doubleCharges, long paidOrders, long chargedButNotPaid) {
}
