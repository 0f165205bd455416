package archlab.order;

import archlab.downstream.DownstreamTimeoutException;
import java.util.Locale;

/**
 * A charge left the {@link PaymentBulkhead}'s line at its caller's deadline: nothing was sent, the provider never saw
 * it ({@link #passedOnArrival()} is {@code true}), so it is safe to undo and worth another attempt if time is left.
 * The message says how long it waited, e.g.
 * {@code "payments bulkhead: all 4 calls busy for 61.3ms, the caller's deadline passed; nothing sent"}.
 */
public final class BulkheadFullException extends DownstreamTimeoutException {

    BulkheadFullException(int maxConcurrentCalls, long waitedNanos) {
        super("payments", -1, true, String.format(Locale.ROOT,
                "payments bulkhead: all %d calls busy for %.1fms, the caller's deadline passed; nothing sent",
                maxConcurrentCalls, waitedNanos / 1e6));
    }
}
