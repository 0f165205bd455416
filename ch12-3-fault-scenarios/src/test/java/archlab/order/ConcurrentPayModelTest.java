package archlab.order;

import archlab.loadgen.testing.MultiSecondCheck;
import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.ChargeResult;
import archlab.downstream.DownstreamException;
import archlab.downstream.ErrorInjection;
import archlab.downstream.InventoryStub;
import archlab.downstream.LatencyModel;
import archlab.downstream.NotifierStub;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.request.DeadlineExceededException;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The trap: one-fault-at-a-time tests pass while two threads, a lost reply and the reconciler, all busy with
 * the same order, still lose money. This test lets 8 threads run 10,000 seeded random operations — create,
 * get, pay, pay-and-retry — against the hardened service while every downstream fails now and then
 * (inventory errors, declines and notifier errors 5 % each; lost replies 30 %, so that some charges lose the
 * replies of all their attempts, replays included, and reach the reconciler), with the relay and the reconciler
 * running. Then it stops the load, lets the reconciler and the outbox finish, and checks the books against a
 * model kept beside the run: what was created, with which total and units, and which pays said PAID.
 *
 * <p>Zero-latency stubs and a no-op retry sleeper keep it fast (about a second); it asserts no time at all.
 * Run it with {@code mvn -pl ch12-3-fault-scenarios test -Dtest=ConcurrentPayModelTest}; on a failure the
 * message names the orders that broke the rule.
 */
@MultiSecondCheck
class ConcurrentPayModelTest {

    private static final long SEED = 0x12_3_0CAFEL;
    private static final int THREADS = 8;
    private static final int OPS = 10_000;
    private static final int PRE_CREATED = 200;
    private static final double FAULT_RATE = 0.05;
    private static final double LOST_REPLY_RATE = 0.30;
    private static final Duration REQUEST_TIMEOUT = Duration.ofMillis(200);
    private static final String[] SKUS = {"sku-a", "sku-b", "sku-c"};

    /** What the model knows of an order from its create: the amount it must be charged and the units it holds. */
    private record Expected(long totalCents, long units) {
    }

    private final InventoryStub inventory = new InventoryStub(
            new StubBehaviour(LatencyModel.ZERO, ErrorInjection.forStream(SEED, 1, FAULT_RATE)));
    private final PaymentsStub payments = new PaymentsStub(
            new StubBehaviour(LatencyModel.ZERO, ErrorInjection.forStream(SEED, 2, FAULT_RATE)),
            ErrorInjection.forStream(SEED, 3, LOST_REPLY_RATE));
    private final NotifierStub notifier = new NotifierStub(
            new StubBehaviour(LatencyModel.ZERO, ErrorInjection.forStream(SEED, 4, FAULT_RATE)));

    private final Map<String, Expected> expected = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<String> ids = new AtomicReferenceArray<>(PRE_CREATED + OPS);
    private final AtomicInteger created = new AtomicInteger();
    private final Set<String> paidByAPay = ConcurrentHashMap.newKeySet();
    private final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final LongAdder pays = new LongAdder();
    private final LongAdder payFailures = new LongAdder();

    @Test
    @DisplayName("8 threads, 10,000 random ops, 5 % of every downstream's calls failing and 30 % of charge replies lost: after reconcile and drain the PAID orders are exactly the charged ones, each charged once for its total, notified once, and holding its units")
    void theBooksBalanceUnderConcurrentFaultyPays() throws Exception {
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, notifier, OrderServiceSettings.DEFAULT
                .withPayLimit(null).withSleeper(nanos -> { }));
        OrderService service = parts.service();
        parts.relay().start();
        parts.reconciler().start();
        Random setup = new Random(SEED);
        for (int i = 0; i < PRE_CREATED; i++) {
            create(service, setup);
        }

        runConcurrently(service);
        parts.reconciler().stop();
        assertThat(parts.reconciler().reconcileAll(Duration.ofSeconds(30))).as("every unknown charge resolved").isTrue();
        assertThat(parts.relay().awaitDrained(Duration.ofSeconds(30))).as("outbox drained").isTrue();
        service.close();

        System.out.printf("[model] ops=%d pays=%d pay_failures=%d declines=%d lost_replies=%d charged=%d "
                        + "reconciler_completed_paid=%d reconciler_released=%d retries=%d notifier_errors=%d%n",
                OPS, pays.sum(), payFailures.sum(), payments.declines(), payments.lostReplies(),
                payments.ledger().charges(), parts.reconciler().completedPaid(), parts.reconciler().released(),
                parts.retries(), notifier.counters().injectedErrors());
        assertThat(violations).as("a get right after a successful pay saw PAID").isEmpty();
        checkTheBooks(service);
        assertThat(pays.sum()).as("the mix exercised pay").isGreaterThan(OPS / 4);
        assertThat(payFailures.sum()).as("and the faults reached it").isPositive();
        assertThat(payments.lostReplies()).as("lost replies happened").isPositive();
        assertThat(parts.reconciler().completedPaid()).as("the reconciler completed some").isPositive();
    }

    private void runConcurrently(OrderService service) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Random random = new Random(SEED + t);
            done.add(threads.submit(() -> {
                start.await();
                for (int op = 0; op < OPS / THREADS; op++) {
                    step(service, random);
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        threads.shutdown();
    }

    private void step(OrderService service, Random random) {
        int roll = random.nextInt(100);
        if (roll < 20) {
            create(service, random);
            return;
        }
        String id = ids.get(random.nextInt(created.get()));
        if (roll < 45) {
            get(service, id);
        } else if (roll < 80) {
            pay(service, id);
        } else {
            if (!pay(service, id)) {
                pay(service, id); // the client's retry: a second pay of the same order
            }
        }
    }

    private void create(OrderService service, Random random) {
        List<Item> items = new ArrayList<>();
        int lines = 1 + random.nextInt(3);
        for (int i = 0; i < lines; i++) {
            items.add(new Item(SKUS[random.nextInt(SKUS.length)], 1 + random.nextInt(3), 100 + random.nextInt(5_000)));
        }
        Order order = service.create(request(), "cust-" + random.nextInt(50), items);
        expected.put(order.id(), new Expected(order.totalCents(), items.stream().mapToLong(Item::quantity).sum()));
        ids.set(created.getAndIncrement(), order.id()); // a pick may see the slot before it is written: null, skipped
    }

    private void get(OrderService service, String id) {
        if (id != null) {
            service.get(request(), id);
        }
    }

    /** @return whether the pay answered PAID */
    private boolean pay(OrderService service, String id) {
        if (id == null) {
            return true;
        }
        pays.increment();
        try {
            Order paid = service.pay(request(), id);
            paidByAPay.add(id);
            if (paid.status() != OrderStatus.PAID) {
                violations.add(id + ": pay answered " + paid.status());
            }
            OrderStatus seen = service.get(request(), id).status();
            if (seen != OrderStatus.PAID) {
                violations.add(id + ": get after a successful pay saw " + seen);
            }
            return true;
        } catch (InvalidStateException | RequestRejectedException e) {
            return true; // already paid, or being paid, or the breaker is open: nothing to retry now
        } catch (DownstreamException | DeadlineExceededException | PaymentOutcomeUnknownException | CircuitOpenMidPayException e) {
            // DeadlineExceededException covers a downstream timeout and a deadline that passed before an attempt
            // (the machine stalled): the pay failed either way, and the books must still balance
            payFailures.increment();
            return false;
        }
    }

    private static RequestContext request() {
        return RequestContext.withTimeout(NanoClock.SYSTEM, REQUEST_TIMEOUT);
    }

    private void checkTheBooks(OrderService service) {
        Set<String> paid = new TreeSet<>();
        Set<String> paying = new TreeSet<>();
        long unitsOfPaid = 0;
        for (Map.Entry<String, Expected> e : expected.entrySet()) {
            OrderStatus status = service.get(RequestContext.background(), e.getKey()).status();
            if (status == OrderStatus.PAID) {
                paid.add(e.getKey());
                unitsOfPaid += e.getValue().units();
            } else if (status == OrderStatus.PAYING) {
                paying.add(e.getKey());
            }
        }
        Set<String> charged = new TreeSet<>(payments.ledger().chargedOrderIds());

        assertThat(paying).as("no order left PAYING").isEmpty();
        assertThat(paid).as("PAID orders == charged orders (rest are CREATED and uncharged)").isEqualTo(charged);
        assertThat(paid).as("every pay that answered PAID is PAID").containsAll(paidByAPay);
        assertThat(payments.ledger().doubleCharges()).as("double charges").isZero();
        List<String> wrongAmount = new ArrayList<>();
        for (String id : charged) {
            List<ChargeResult> c = payments.ledger().chargesFor(id);
            if (c.size() != 1 || c.get(0).amountCents() != expected.get(id).totalCents()) {
                wrongAmount.add(id + " " + c);
            }
        }
        assertThat(wrongAmount).as("each charged once, for the total its create returned").isEmpty();
        List<String> notNotifiedOnce = new ArrayList<>();
        for (String id : paid) {
            if (notifier.notificationsFor(id) != 1) {
                notNotifiedOnce.add(id + " x" + notifier.notificationsFor(id));
            }
        }
        assertThat(notNotifiedOnce).as("every PAID order notified exactly once").isEmpty();
        assertThat(notifier.ordersNotified()).as("nothing notified that is not PAID").isEqualTo(paid.size());
        assertThat(inventory.totalReservedUnits()).as("reserved units == units of the PAID orders").isEqualTo(unitsOfPaid);
    }
}
