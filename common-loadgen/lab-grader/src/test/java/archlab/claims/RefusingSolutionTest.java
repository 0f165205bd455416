package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.Inventory;
import archlab.loadgen.testing.MultiSecondCheck;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The refusal attack: a solution that answers "rejected" to every pay is fast, charges nobody twice, holds no reader
 * and moves no money, and once passed the claims that measure only that. Every claim now names the work it needs, so
 * such a solution earns the one claim that pays nothing (create and get) and no other.
 */
@MultiSecondCheck
class RefusingSolutionTest {

    @Test
    @DisplayName("a solution that refuses every pay passes no claim but 12.1-create-get (the fast claims, one attempt each)")
    void refusingEveryPayPassesNothingThatPays() throws Exception {
        Map<String, String> passed = new TreeMap<>();
        Map<String, String> outcomes = new TreeMap<>();
        for (Claim claim : Claims.all()) {
            if (claim.load()) {
                continue; // the book's load takes seconds; the grade of a refusing solution is run by hand (see the report)
            }
            ClaimVerdict v = claim.judge().judge(new Refusing(), ClaimInputs.of(ClaimInputs.FIXED_SEED, claim.id(), 1));
            outcomes.put(claim.id(), v.outcome() + " " + v.measured());
            if (v.outcome() != ClaimVerdict.Outcome.FAILED) {
                passed.put(claim.id(), v.outcome() + " " + v.measured());
            }
        }
        assertThat(passed).as("claims not failed by a refusing solution, of %s", outcomes).containsOnlyKeys("12.1-create-get");
    }

    /** Keeps orders in a map, checks its input as chapter 12.1 asks, and refuses every pay. */
    private static final class Refusing implements Checkpoint {
        @Override
        public OrderPort open(Inventory inventory, Payments payments, Notifier notifier) {
            Map<String, OrderPort.OrderView> orders = new ConcurrentHashMap<>();
            AtomicLong ids = new AtomicLong();
            return new OrderPort() {
                @Override
                public OrderView create(RequestContext ctx, String customerId, List<Line> lines) {
                    if (customerId == null || customerId.isBlank() || lines == null || lines.isEmpty()) {
                        throw invalid();
                    }
                    long total = 0;
                    for (Line l : lines) {
                        if (l == null || l.sku() == null || l.sku().isBlank() || l.quantity() <= 0 || l.unitPriceCents() < 0) {
                            throw invalid();
                        }
                        try {
                            total = Math.addExact(total, Math.multiplyExact(l.quantity(), l.unitPriceCents()));
                        } catch (ArithmeticException e) {
                            throw invalid();
                        }
                    }
                    OrderView v = new OrderView("ord-" + ids.incrementAndGet(), "CREATED", total, 0);
                    orders.put(v.id(), v);
                    return v;
                }

                @Override
                public OrderView get(RequestContext ctx, String orderId) {
                    OrderView v = orderId == null ? null : orders.get(orderId);
                    if (v == null) {
                        throw new OrderPortException(OrderPortException.Kind.NOT_FOUND, new IllegalStateException("no order " + orderId));
                    }
                    return v;
                }

                @Override
                public OrderView pay(RequestContext ctx, String orderId) {
                    throw new OrderPortException(OrderPortException.Kind.REJECTED,
                            new RequestRejectedException("every pay is refused", Duration.ofSeconds(1)));
                }

                @Override
                public boolean isPaid(String orderId) {
                    return false;
                }

                @Override
                public void close() {
                }
            };
        }

        private static OrderPortException invalid() {
            return new OrderPortException(OrderPortException.Kind.INVALID_INPUT, new IllegalArgumentException("bad input"));
        }
    }
}
