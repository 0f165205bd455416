package archlab.claims;

import archlab.downstream.ErrorInjection;
import archlab.downstream.FaultModel;
import archlab.downstream.InventoryStub;
import archlab.downstream.LatencyModel;
import archlab.downstream.NotifierStub;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * One claim's world: fresh downstream stubs (latencies and seeded faults chosen by the claim), a fresh service over
 * them through the {@link OrderPort}, and the small helpers every claim needs. Nothing here knows any checkpoint.
 *
 * <p>Use one per judgement, in try-with-resources: closing it closes the service.
 */
final class Bench implements AutoCloseable {

    /** The book's order line: one unit of sku-a at 19.99. */
    static final List<OrderPort.Line> BOOK_LINES = List.of(new OrderPort.Line("sku-a", 1, 1999));

    final InventoryStub inventory;
    final PaymentsStub payments;
    final NotifierStub notifier;
    /** The provider as the solution sees it: {@link #payments} with a gauge of the charges in flight. */
    final ChargesInFlight charges;
    final OrderPort port;

    private Bench(Checkpoint checkpoint, InventoryStub inventory, PaymentsStub payments, NotifierStub notifier) {
        this.inventory = inventory;
        this.payments = payments;
        this.notifier = notifier;
        this.charges = new ChargesInFlight(payments);
        this.port = checkpoint.open(inventory, charges, notifier);
    }

    /** The book's stubs: inventory 2 ms, payment 4 ms, notify 2 ms, no faults. */
    static Bench book(Checkpoint checkpoint) {
        return latencies(checkpoint, Duration.ofMillis(2), Duration.ofMillis(4), Duration.ofMillis(2));
    }

    /** Fault-free stubs with these latencies. */
    static Bench latencies(Checkpoint checkpoint, Duration inventory, Duration payment, Duration notify) {
        return of(checkpoint, StubBehaviour.constant(inventory), StubBehaviour.constant(payment), ErrorInjection.NONE,
                StubBehaviour.constant(notify));
    }

    /**
     * @param payment     the provider's latency; its errors are declines
     * @param lostReplies which charges lose their reply after the money moved
     */
    static Bench of(Checkpoint checkpoint, StubBehaviour inventory, StubBehaviour payment, FaultModel lostReplies,
                    StubBehaviour notify) {
        return new Bench(checkpoint, new InventoryStub(inventory), new PaymentsStub(payment, lostReplies),
                new NotifierStub(notify));
    }

    /** @return latency {@code first} for call 0, {@code rest} after it */
    static LatencyModel firstCall(Duration first, Duration rest) {
        return callIndex -> callIndex == 0 ? first : rest;
    }

    /** @return a request whose deadline is {@code timeout} from now */
    static RequestContext request(Duration timeout) {
        return RequestContext.withTimeout(NanoClock.SYSTEM, timeout);
    }

    /** @return a new order of the book's line, created with a 1 s deadline */
    String createBookOrder() {
        return port.create(request(Duration.ofSeconds(1)), "cust", BOOK_LINES).id();
    }

    /** @return how many charges the ledger holds for {@code orderId} */
    long chargesFor(String orderId) {
        return payments.ledger().chargesFor(orderId).size();
    }

    /** What a timed call answered and how long it took. */
    record Timed<T>(T value, OrderPortException error, long nanos) {
        double millis() {
            return nanos / 1e6;
        }

        String describe(String what) {
            return String.format(Locale.ROOT, "%s %s in %.1f ms", what,
                    error == null ? "answered" : "answered " + error.kind(), millis());
        }
    }

    /** Runs {@code call}, timing it; an {@link OrderPortException} is the answer, not an error of the claim. */
    static <T> Timed<T> timed(Callable<T> call) throws Exception {
        long start = System.nanoTime();
        try {
            T value = call.call();
            return new Timed<>(value, null, System.nanoTime() - start);
        } catch (OrderPortException e) {
            return new Timed<>(null, e, System.nanoTime() - start);
        }
    }

    /** @return whether {@code condition} became true within {@code limit}, polling every 10 ms */
    static boolean eventually(Duration limit, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(10);
        }
        return condition.getAsBoolean();
    }

    @Override
    public void close() {
        port.close();
    }
}
