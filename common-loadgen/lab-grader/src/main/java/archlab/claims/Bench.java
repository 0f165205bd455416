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
 * them through the {@link OrderPort}, the attempt's {@link ClaimInputs} (the customer and line its orders are created
 * with), and the small helpers every claim needs. Nothing here knows any checkpoint.
 *
 * <p>Use one per judgement, in try-with-resources: closing it closes the service.
 */
final class Bench implements AutoCloseable {

    final InventoryStub inventory;
    final PaymentsStub payments;
    final NotifierStub notifier;
    /** The provider as the solution sees it: {@link #payments} with a gauge of the charges in flight. */
    final ChargesInFlight charges;
    final OrderPort port;
    final ClaimInputs inputs;

    private Bench(Checkpoint checkpoint, ClaimInputs inputs, InventoryStub inventory, PaymentsStub payments, NotifierStub notifier) {
        this(checkpoint, inputs, inventory, payments, notifier, OrderFaults.NONE);
    }

    private Bench(Checkpoint checkpoint, ClaimInputs inputs, InventoryStub inventory, PaymentsStub payments, NotifierStub notifier,
                  OrderFaults faults) {
        this.inputs = inputs;
        this.inventory = inventory;
        this.payments = payments;
        this.notifier = notifier;
        this.charges = new ChargesInFlight(payments, faults);
        this.port = checkpoint.open(inventory, charges,
                faults.failingNotifications() == 0 ? notifier : new FailingNotifications(notifier, faults.failingNotifications()));
    }

    /** The book's stubs, jittered: inventory 1..3 ms (2), payment 3..5 ms (4), notify 1..3 ms (2), no faults. */
    static Bench book(Checkpoint checkpoint, ClaimInputs inputs) {
        return latencies(checkpoint, inputs, inputs.millis("book inventory", 1, 3), inputs.millis("book payment", 3, 5),
                inputs.millis("book notify", 1, 3));
    }

    /** Fault-free stubs with these latencies. */
    static Bench latencies(Checkpoint checkpoint, ClaimInputs inputs, Duration inventory, Duration payment, Duration notify) {
        return of(checkpoint, inputs, StubBehaviour.constant(inventory), StubBehaviour.constant(payment), ErrorInjection.NONE,
                StubBehaviour.constant(notify));
    }

    /**
     * @param payment     the provider's latency; its errors are declines
     * @param lostReplies which charges lose their reply after the money moved
     */
    static Bench of(Checkpoint checkpoint, ClaimInputs inputs, StubBehaviour inventory, StubBehaviour payment,
                    FaultModel lostReplies, StubBehaviour notify) {
        return new Bench(checkpoint, inputs, new InventoryStub(inventory), new PaymentsStub(payment, lostReplies),
                new NotifierStub(notify));
    }

    /**
     * Stubs with these latencies and no faults of their own, and {@code faults} injected per order between the
     * service and the provider / the notifier ({@link OrderFaults}).
     */
    static Bench withOrderFaults(Checkpoint checkpoint, ClaimInputs inputs, Duration inventory, Duration payment, Duration notify,
                                 OrderFaults faults) {
        return new Bench(checkpoint, inputs, new InventoryStub(StubBehaviour.constant(inventory)),
                new PaymentsStub(StubBehaviour.constant(payment), ErrorInjection.NONE),
                new NotifierStub(StubBehaviour.constant(notify)), faults);
    }

    /** @return latency {@code first} for call 0, {@code rest} after it */
    static LatencyModel firstCall(Duration first, Duration rest) {
        return callIndex -> callIndex == 0 ? first : rest;
    }

    /** @return a request whose deadline is {@code timeout} from now */
    static RequestContext request(Duration timeout) {
        return RequestContext.withTimeout(NanoClock.SYSTEM, timeout);
    }

    /** @return a new order of the inputs' customer and book line (one unit), created with a deadline of 0.8..1.2 s */
    String createBookOrder() {
        return port.create(request(inputs.millis("create deadline", 800, 1_200)), inputs.customer(), inputs.bookLines()).id();
    }

    /** @return whether {@code orderId} ended PAID with exactly one charge, of its total */
    boolean paidOnce(String orderId) {
        return port.isPaid(orderId) && chargesFor(orderId) == 1;
    }

    /** @return what a timed pay answered: the status, or the kind of error */
    static String answer(Timed<OrderPort.OrderView> t) {
        return t.error() == null ? t.value().status() : t.error().kind().name();
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
