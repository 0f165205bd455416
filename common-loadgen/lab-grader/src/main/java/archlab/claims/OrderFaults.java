package archlab.claims;

import java.time.Duration;

/**
 * The faults a claim injects, counted per order: the first {@code slowCharges} charges of each order answer after
 * {@code slowLatency} (the money moved at once, the reply is late), the first {@code lostReplies} lose their reply
 * after the money moved, the first {@code lostRequests} never reach the provider (nothing charged, the caller hears a
 * timeout), and the first {@code failingNotifications} notifications of each order are refused (nothing delivered).
 *
 * <p>The trap it closes: a fault chosen by the stub's global call number ("the first charge") can be used up by the
 * solution itself — a charge of an order no one placed, sent with a deadline that passes on arrival, leaves no trace
 * in the books and takes the fault meant for the claim's order. Counted per order, the only way to use up an order's
 * fault is a call for that very order, which the books see (a second charge, a notification).
 *
 * @param slowCharges          how many of each order's first charges answer late
 * @param slowLatency          how late: the reply's delay (bounded by the caller's deadline, then a timeout)
 * @param lostReplies          how many of each order's first charges lose their reply after charging
 * @param lostRequests         how many of each order's first charges are lost on their way
 * @param failingNotifications how many of each order's first notifications are refused
 */
record OrderFaults(int slowCharges, Duration slowLatency, int lostReplies, int lostRequests, int failingNotifications) {

    static final OrderFaults NONE = new OrderFaults(0, Duration.ZERO, 0, 0, 0);

    OrderFaults {
        if (slowCharges < 0 || lostReplies < 0 || lostRequests < 0 || failingNotifications < 0) {
            throw new IllegalArgumentException("fault counts must not be negative");
        }
    }

    static OrderFaults slowCharges(int n, Duration latency) {
        return new OrderFaults(n, latency, 0, 0, 0);
    }

    static OrderFaults lostReplies(int n) {
        return new OrderFaults(0, Duration.ZERO, n, 0, 0);
    }

    static OrderFaults lostRequests(int n) {
        return new OrderFaults(0, Duration.ZERO, 0, n, 0);
    }

    static OrderFaults failingNotifications(int n) {
        return new OrderFaults(0, Duration.ZERO, 0, 0, n);
    }
}
