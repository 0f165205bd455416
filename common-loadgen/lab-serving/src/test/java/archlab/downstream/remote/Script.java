package archlab.downstream.remote;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Downstream;
import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.IdempotencyKeyConflictException;
import archlab.downstream.InventoryStub;
import archlab.downstream.Notification;
import archlab.downstream.NotifierStub;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.request.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One script of calls to every method of the three ports, run the same against the stubs directly or over HTTP: each
 * call's answer written down as text (its result, or its exception's type, message and fields), and the books the
 * stubs keep afterwards. Two runs that write the same text answered and booked the same.
 */
final class Script {

    private Script() {
    }

    /**
     * Stubs that fail on purpose, by call index: inventory call 1 refused; payment call 0 declined, call 1's reply lost,
     * call 6 (a keyed charge) declined; notifier call 2 refused.
     */
    static Downstream faulty() {
        return new Downstream(new InventoryStub(StubBehaviour.INSTANT.withErrors(i -> i == 1)),
                new PaymentsStub(StubBehaviour.INSTANT.withErrors(i -> i == 0 || i == 6), i -> i == 1),
                new NotifierStub(StubBehaviour.INSTANT.withErrors(i -> i == 2)));
    }

    /** @return each call's answer, in order */
    static List<String> run(archlab.downstream.Inventory inventory, archlab.downstream.Payments payments,
                            archlab.downstream.Notifier notifier) {
        List<String> out = new ArrayList<>();
        RequestContext ctx = RequestContext.background();
        step(out, "reserve sku-a 2", () -> run(() -> inventory.reserve(ctx, "sku-a", 2)));
        step(out, "reserve sku-a 1", () -> run(() -> inventory.reserve(ctx, "sku-a", 1)));
        step(out, "keyed reserve k1 sku-b 3", () -> run(() -> inventory.reserve(ctx, "k1", "sku-b", 3)));
        step(out, "keyed reserve k1 sku-c 3 (key reused)", () -> run(() -> inventory.reserve(ctx, "k1", "sku-c", 3)));
        step(out, "keyed release k1", () -> run(() -> inventory.release(ctx, "k1")));
        step(out, "keyed reserve k1 after its release", () -> run(() -> inventory.reserve(ctx, "k1", "sku-b", 3)));
        step(out, "release sku-a 1", () -> run(() -> inventory.release(ctx, "sku-a", 1)));
        step(out, "keyed release k-late before its reserve", () -> run(() -> inventory.release(ctx, "k-late")));
        step(out, "keyed reserve k-late", () -> run(() -> inventory.reserve(ctx, "k-late", "sku-d", 1)));
        step(out, "reserve blank sku", () -> run(() -> inventory.reserve(ctx, " ", 1)));
        step(out, "reserve null sku", () -> run(() -> inventory.reserve(ctx, null, 1)));
        step(out, "reserve 0 units", () -> run(() -> inventory.reserve(ctx, "sku-a", 0)));
        step(out, "keyed release blank key", () -> run(() -> inventory.release(ctx, "")));

        step(out, "charge o-1 no key", () -> payments.charge(ctx, ChargeRequest.withoutKey("o-1", 100)));
        step(out, "charge o-2 no key", () -> payments.charge(ctx, ChargeRequest.withoutKey("o-2", 200)));
        step(out, "charge o-3 key-3", () -> payments.charge(ctx, new ChargeRequest("o-3", 300, "key-3")));
        step(out, "charge o-3 key-3 again", () -> payments.charge(ctx, new ChargeRequest("o-3", 300, "key-3")));
        step(out, "charge o-4 key-3 (key reused)", () -> payments.charge(ctx, new ChargeRequest("o-4", 300, "key-3")));
        step(out, "charge o-5 no key", () -> payments.charge(ctx, ChargeRequest.withoutKey("o-5", 500)));
        step(out, "charge o-6 key-6", () -> payments.charge(ctx, new ChargeRequest("o-6", 600, "key-6")));
        step(out, "charge o-6 key-6 again", () -> payments.charge(ctx, new ChargeRequest("o-6", 600, "key-6")));
        step(out, "charge o-7 key with URL characters", () -> payments.charge(ctx, new ChargeRequest("o-7", 700, "k ey/7?&=#%")));
        step(out, "find key-3", () -> payments.findByIdempotencyKey("key-3"));
        step(out, "find key-6", () -> payments.findByIdempotencyKey("key-6"));
        step(out, "find key with URL characters", () -> payments.findByIdempotencyKey("k ey/7?&=#%"));
        step(out, "find a key never sent", () -> payments.findByIdempotencyKey("never"));
        step(out, "find a blank key", () -> payments.findByIdempotencyKey(" "));

        step(out, "notify m1 o-1", () -> run(() -> notifier.notify(ctx, new Notification("m1", "o-1"))));
        step(out, "notify m1 o-1 again", () -> run(() -> notifier.notify(ctx, new Notification("m1", "o-1"))));
        step(out, "notify m2 o-1", () -> run(() -> notifier.notify(ctx, new Notification("m2", "o-1"))));
        step(out, "notify m1 o-2 (id reused)", () -> run(() -> notifier.notify(ctx, new Notification("m1", "o-2"))));
        step(out, "notify m3 o-1", () -> run(() -> notifier.notify(ctx, new Notification("m3", "o-1"))));
        return out;
    }

    /** @return the books and counters of the stubs, as text */
    static String books(Downstream d) {
        InventoryStub i = d.inventory();
        NotifierStub n = d.notifier();
        return d.counts() + "\n" + i + " sku-a=" + i.reservedUnits("sku-a") + " sku-b=" + i.reservedUnits("sku-b")
                + " sku-c=" + i.reservedUnits("sku-c") + " sku-d=" + i.reservedUnits("sku-d") + " reservations="
                + i.reservations() + " releases=" + i.releases() + " keyed_repeats=" + i.keyedRepeats() + "\n"
                + d.payments() + " charges=" + d.ledger().chargedOrderIds().stream().map(o -> o + ":" + d.ledger().chargesFor(o)).toList()
                + " declines=" + d.payments().declines() + " declines_replayed=" + d.payments().declinesReplayed()
                + " lost=" + d.payments().lostReplies() + "\n"
                + n + " distinct=" + n.distinctMessages() + " o-1=" + n.notificationsFor("o-1") + " o-2="
                + n.notificationsFor("o-2") + " duplicates=" + n.duplicateNotifications();
    }

    /** @return the exception as text: its type, message, and the fields its type has */
    static String describe(Throwable e) {
        StringBuilder s = new StringBuilder(e.getClass().getName()).append(": ").append(e.getMessage());
        if (e instanceof DownstreamTimeoutException t) {
            s.append(" [stub=").append(t.stub()).append(" call=").append(t.callIndex()).append(" passedOnArrival=")
                    .append(t.passedOnArrival()).append(']');
        }
        if (e instanceof DownstreamException d) {
            s.append(" [stub=").append(d.stub()).append(" call=").append(d.callIndex()).append(']');
        }
        if (e instanceof IdempotencyKeyConflictException c) {
            s.append(" [key=").append(c.idempotencyKey()).append(']');
        }
        return s.toString();
    }

    private static Object run(Runnable call) {
        call.run();
        return "done";
    }

    private static void step(List<String> out, String name, Supplier<Object> call) {
        try {
            out.add(name + " -> " + call.get());
        } catch (RuntimeException e) {
            out.add(name + " -> " + describe(e));
        }
    }
}
