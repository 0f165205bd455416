package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.InventoryStub;
import archlab.downstream.LatencyModel;
import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.downstream.NotifierStub;
import archlab.downstream.PaymentsStub;
import archlab.downstream.PermanentDeliveryException;
import archlab.downstream.StubBehaviour;
import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The outbox and its relay: a PAID order's notification is recorded with the PAID mark, and delivered
 * at least once, with the same message id every time, so the receiver counts a redelivery instead of
 * notifying twice. Exactly once in effect, through transient failures, lost acknowledgements, a relay
 * that stops and starts again, and outages as long as the retry horizon; parked only when the notifier says
 * "never" or the horizon passed, and delivered once redriven.
 */
class OutboxRelayTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final List<Item> ONE_ITEM = List.of(new Item("sku-a", 1, 1999));
    private static final OutboxRelay.Settings QUICK = new OutboxRelay.Settings(Duration.ofMillis(1), Duration.ofSeconds(1),
            Duration.ofMinutes(1), Duration.ofMillis(1), Duration.ofMillis(5), 64);

    private final NotifierStub receiver = new NotifierStub(StubBehaviour.INSTANT);

    @Test
    @DisplayName("every PAID order is notified exactly once in effect while the notifier refuses calls, loses acknowledgements, and the relay is restarted")
    void exactlyOnceInEffectUnderTransientFailureAndRestart() {
        // the receiver refuses its first five calls (nothing delivered); every fourth delivery loses its ack
        NotifierStub flaky = new NotifierStub(new StubBehaviour(LatencyModel.ZERO, callIndex -> callIndex < 5));
        LosingAcks notifier = new LosingAcks(flaky, call -> call % 4 == 3);
        OrderServiceAssembly parts = realTimeService(notifier, QUICK);
        OrderService service = parts.service();
        List<String> ids = new ArrayList<>();
        parts.relay().start();
        try {
            for (int i = 0; i < 10; i++) {
                ids.add(pay(service));
            }
            parts.relay().stop();
            for (int i = 0; i < 10; i++) {
                ids.add(pay(service)); // appended while no relay runs: they wait in the outbox
            }
            assertThat(parts.outbox().depth()).as("waiting while stopped").isGreaterThanOrEqualTo(10);
            parts.relay().start();
            assertThat(parts.relay().awaitDrained(Duration.ofSeconds(30))).as("drained after the restart").isTrue();
        } finally {
            service.close();
        }
        for (String id : ids) {
            assertThat(flaky.notificationsFor(id)).as("notifications of " + id).isEqualTo(1);
        }
        assertThat(notifier.lostAcks.get()).as("some acknowledgements were lost").isPositive();
        assertThat(flaky.redeliveries()).as("each lost ack is one recognised redelivery").isEqualTo(notifier.lostAcks.get());
        assertThat(flaky.duplicateNotifications()).isZero();
        assertThat(flaky.counters().injectedErrors()).isEqualTo(5);
        assertThat(parts.outbox().delivered()).isEqualTo(ids.size());
        assertThat(parts.outbox().parked()).isEmpty();
    }

    @Test
    @DisplayName("nothing is lost when the relay is stopped with entries pending: they wait in the outbox and are delivered after the next start")
    void nothingLostWhenStoppedWithEntriesPending() {
        Switchable notifier = new Switchable(receiver);
        notifier.up.set(false);
        OrderServiceAssembly parts = realTimeService(notifier, QUICK);
        OrderService service = parts.service();
        List<String> ids = new ArrayList<>();
        try {
            parts.relay().start();
            for (int i = 0; i < 5; i++) {
                ids.add(pay(service));
            }
            awaitTrue(() -> ids.stream().allMatch(id -> parts.outbox().entry(messageId(id))
                    .map(e -> e.attempts() >= 2).orElse(false)), "every entry tried twice");
            parts.relay().stop();

            assertThat(parts.outbox().depth()).isEqualTo(5);
            assertThat(parts.outbox().delivered()).isZero();
            ids.forEach(id -> assertThat(service.isPaid(id)).isTrue());
            ids.forEach(id -> assertThat(receiver.notificationsFor(id)).isZero());

            notifier.up.set(true);
            parts.relay().start();
            assertThat(parts.relay().awaitDrained(Duration.ofSeconds(30))).isTrue();
        } finally {
            service.close();
        }
        ids.forEach(id -> assertThat(receiver.notificationsFor(id)).as(id).isEqualTo(1));
        assertThat(parts.outbox().depth()).isZero();
    }

    @Test
    @DisplayName("with the default settings an entry outlives a 9-minute notifier outage: hundreds of failed attempts, never parked, delivered once the notifier is back")
    void attemptsAloneNeverParkAnEntry() {
        FakeClock clock = new FakeClock();
        Switchable notifier = new Switchable(receiver);
        notifier.up.set(false);
        OrderServiceAssembly parts = fakeTimeService(clock, notifier, OutboxRelay.Settings.DEFAULT);
        OrderService service = parts.service();
        String id = pay(service);
        OutboxRelay relay = parts.relay();

        Duration down = Duration.ofMinutes(9);
        Duration elapsed = Duration.ZERO;
        while (elapsed.compareTo(down) < 0) {
            assertThat(relay.deliverDue().parked()).as("parked after " + elapsed).isZero();
            Duration step = relay.backoffCap(parts.outbox().entry(messageId(id)).orElseThrow().attempts());
            clock.advance(step); // the cap: at least the jittered wait, so the entry is due again
            elapsed = elapsed.plus(step);
        }
        Outbox.Entry held = parts.outbox().entry(messageId(id)).orElseThrow();
        assertThat(held.state()).isEqualTo(Outbox.State.PENDING);
        assertThat(held.attempts()).as("far beyond the 8 attempts the old relay allowed").isGreaterThan(500);
        assertThat(parts.outbox().isDrained()).isFalse();

        notifier.up.set(true);
        assertThat(relay.deliverDue().delivered()).isEqualTo(1);
        assertThat(receiver.notificationsFor(id)).isEqualTo(1);
        assertThat(parts.outbox().isDrained()).isTrue();
        assertThat(parts.outbox().parkings()).isZero();
    }

    @Test
    @DisplayName("an entry still failing when its retry horizon has passed is parked with the reason, listed, not retried, and delivered once redriven")
    void parkedAfterTheHorizonAndRedriven() {
        FakeClock clock = new FakeClock();
        Switchable notifier = new Switchable(receiver);
        notifier.up.set(false);
        OrderServiceAssembly parts = fakeTimeService(clock, notifier, OutboxRelay.Settings.DEFAULT
                .withRetryHorizon(Duration.ofSeconds(2)).withBackoff(Duration.ofMillis(10), Duration.ofMillis(500)));
        OrderService service = parts.service();
        String id = pay(service);
        OutboxRelay relay = parts.relay();

        assertThat(relay.deliverDue().retrying()).as("attempt 1 fails").isEqualTo(1);
        assertThat(relay.deliverDue().claimed()).as("not due before its back-off").isZero();
        clock.advance(Duration.ofMillis(1_999));
        assertThat(relay.deliverDue().retrying()).as("inside the horizon: retried, however few attempts").isEqualTo(1);
        clock.advance(relay.backoffCap(2));
        assertThat(relay.deliverDue().parked()).as("the horizon passed: parked").isEqualTo(1);
        clock.advance(Duration.ofHours(1));
        assertThat(relay.deliverDue().claimed()).as("a parked entry is not retried").isZero();

        assertThat(parts.outbox().parked()).singleElement().satisfies(e -> {
            assertThat(e.messageId()).isEqualTo(messageId(id));
            assertThat(e.attempts()).isEqualTo(3);
            assertThat(e.lastError()).contains("horizon").contains("notifier is down");
        });
        assertThat(parts.outbox().depth()).as("a parked entry is held, not gone").isEqualTo(1);
        assertThat(parts.outbox().inDelivery()).isZero();
        assertThat(parts.outbox().isDrained()).isFalse();
        assertThat(relay.awaitDrained(Duration.ofSeconds(30))).as("not drained, and not waited for").isFalse();

        notifier.up.set(true);
        assertThat(parts.outbox().redriveParked()).isEqualTo(1);
        assertThat(relay.deliverDue().delivered()).isEqualTo(1);
        assertThat(receiver.notificationsFor(id)).isEqualTo(1);
        assertThat(parts.outbox().parked()).isEmpty();
        assertThat(parts.outbox().isDelivered(messageId(id))).isTrue();
        assertThat(parts.outbox().redrives()).isEqualTo(1);
        assertThat(parts.outbox().redrivenIds()).containsExactly(messageId(id));
        assertThat(relay.awaitDrained(Duration.ofSeconds(30))).isTrue();
    }

    @Test
    @DisplayName("a redriven entry gets a fresh horizon: failing again right after the redrive retries it instead of parking it")
    void redriveStartsAFreshHorizon() {
        FakeClock clock = new FakeClock();
        Switchable notifier = new Switchable(receiver);
        notifier.up.set(false);
        OrderServiceAssembly parts = fakeTimeService(clock, notifier, OutboxRelay.Settings.DEFAULT
                .withRetryHorizon(Duration.ofSeconds(1)));
        OrderService service = parts.service();
        String id = pay(service);
        clock.advance(Duration.ofSeconds(1));
        assertThat(parts.relay().deliverDue().parked()).isEqualTo(1);

        assertThat(parts.outbox().redrive(messageId(id))).isTrue();
        assertThat(parts.outbox().redrive(messageId(id))).as("only a parked entry is redriven").isFalse();
        assertThat(parts.relay().deliverDue().retrying()).isEqualTo(1);
        assertThat(parts.outbox().entry(messageId(id)).orElseThrow().state()).isEqualTo(Outbox.State.PENDING);
    }

    @Test
    @DisplayName("a permanent refusal parks the entry at its first attempt, with the notifier's reason: no retry can deliver it")
    void permanentRefusalParksAtOnce() {
        FakeClock clock = new FakeClock();
        Notifier never = (ctx, n) -> {
            throw new PermanentDeliveryException("notifier", 0, "no such recipient for " + n.orderId());
        };
        OrderServiceAssembly parts = fakeTimeService(clock, never, OutboxRelay.Settings.DEFAULT);
        OrderService service = parts.service();
        String id = pay(service);

        assertThat(parts.relay().deliverDue().parked()).isEqualTo(1);
        assertThat(parts.outbox().parked()).singleElement().satisfies(e -> {
            assertThat(e.attempts()).isEqualTo(1);
            assertThat(e.lastError()).contains("refused for good").contains("no such recipient for " + id);
        });
    }

    @Test
    @DisplayName("a delivery whose acknowledgement was lost is sent again with the same message id: one redelivery, one notification")
    void lostAcknowledgementIsARecognisedRedelivery() {
        FakeClock clock = new FakeClock();
        LosingAcks notifier = new LosingAcks(receiver, call -> call == 0);
        OrderServiceAssembly parts = fakeTimeService(clock, notifier, OutboxRelay.Settings.DEFAULT);
        OrderService service = parts.service();
        String id = pay(service);

        assertThat(parts.relay().deliverDue().retrying()).isEqualTo(1);
        assertThat(receiver.notificationsFor(id)).as("it did arrive").isEqualTo(1);
        clock.advance(parts.relay().backoffCap(1));
        assertThat(parts.relay().deliverDue().delivered()).isEqualTo(1);

        assertThat(receiver.deliveries()).isEqualTo(2);
        assertThat(receiver.redeliveries()).isEqualTo(1);
        assertThat(receiver.notificationsFor(id)).isEqualTo(1);
    }

    @Test
    @DisplayName("time-to-notify is measured from the PAID mark to the acknowledged delivery, on the injected clock")
    void timeToNotifyIsMeasuredOnTheClock() {
        FakeClock clock = new FakeClock();
        OrderServiceAssembly parts = fakeTimeService(clock, receiver, OutboxRelay.Settings.DEFAULT);
        OrderService service = parts.service();
        pay(service);
        clock.advance(Duration.ofMillis(7));
        parts.relay().deliverDue();

        assertThat(parts.outbox().timeToNotify().count()).isEqualTo(1);
        assertThat(parts.outbox().timeToNotify().maxMicros()).isEqualTo(7_000.0);
    }

    @Test
    @DisplayName("the relay polls as often as its settings say, but never more often than its outbox's floor: 1 ms in the heap, the floor's 10 ms where the outbox asks for it")
    void pollIntervalIsTheLongerOfSettingsAndTheOutboxsFloor() {
        Outbox inHeap = new InMemoryOutbox(new FakeClock());
        Outbox onADatabase = org.mockito.Mockito.mock(Outbox.class);
        org.mockito.Mockito.when(onADatabase.pollFloor()).thenReturn(Duration.ofMillis(10));
        OutboxRelay.Settings every1ms = OutboxRelay.Settings.DEFAULT;
        assertThat(every1ms.pollInterval()).isEqualTo(Duration.ofMillis(1));
        assertThat(new OutboxRelay(inHeap, receiver, new FakeClock(), Runnable::run, every1ms).pollInterval())
                .isEqualTo(Duration.ofMillis(1));
        assertThat(new OutboxRelay(onADatabase, receiver, new FakeClock(), Runnable::run, every1ms).pollInterval())
                .isEqualTo(Duration.ofMillis(10));
    }

    @Test
    @DisplayName("the back-off's cap doubles from its base after each failed attempt and stops at its maximum")
    void backoffDoublesAndIsCapped() {
        OutboxRelay relay = new OutboxRelay(new InMemoryOutbox(new FakeClock()), receiver, new FakeClock(), Runnable::run,
                OutboxRelay.Settings.DEFAULT.withBackoff(Duration.ofMillis(10), Duration.ofMillis(50)));
        assertThat(List.of(relay.backoffCap(1), relay.backoffCap(2), relay.backoffCap(3), relay.backoffCap(4), relay.backoffCap(40)))
                .containsExactly(Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(40), Duration.ofMillis(50),
                        Duration.ofMillis(50));
    }

    @Test
    @DisplayName("entries that failed together are due again spread over [0, cap] (full jitter), not in one wave, and the same on every run")
    void retriesAreJitteredBelowTheCap() {
        List<Long> first = dueOffsetsAfterOneFailure();
        Duration cap = OutboxRelay.Settings.DEFAULT.backoffBase();
        assertThat(first).hasSize(50).allMatch(d -> d >= 0 && d <= cap.toNanos());
        assertThat(first.stream().distinct().count()).as("spread, not one instant").isGreaterThan(40);
        assertThat(dueOffsetsAfterOneFailure()).as("seeded by message id and attempt").isEqualTo(first);
    }

    /** @return for 50 entries whose first attempt failed together, how long after the failure each is due again, ns */
    private List<Long> dueOffsetsAfterOneFailure() {
        FakeClock clock = new FakeClock();
        Switchable notifier = new Switchable(receiver);
        notifier.up.set(false);
        OrderServiceAssembly parts = fakeTimeService(clock, notifier, OutboxRelay.Settings.DEFAULT);
        OrderService service = parts.service();
        for (int i = 0; i < 50; i++) {
            pay(service);
        }
        assertThat(parts.relay().deliverDue().retrying()).isEqualTo(50);
        long failedAt = clock.nanoTime();
        return parts.outbox().entries().stream().map(e -> e.dueNanos() - failedAt).toList();
    }

    private static String pay(OrderService service) {
        String id = service.create(CTX, "cust", ONE_ITEM).id();
        service.pay(CTX, id);
        return id;
    }

    private static String messageId(String orderId) {
        return Notification.orderPaid(orderId).messageId();
    }

    private static OrderServiceAssembly realTimeService(Notifier notifier, OutboxRelay.Settings relay) {
        return OrderServiceAssembly.assemble(new InventoryStub(StubBehaviour.INSTANT), new PaymentsStub(StubBehaviour.INSTANT), notifier,
                OrderServiceSettings.DEFAULT.withPayLimit(null).withRelay(relay));
    }

    private static OrderServiceAssembly fakeTimeService(FakeClock clock, Notifier notifier, OutboxRelay.Settings relay) {
        return OrderServiceAssembly.assemble(new InventoryStub(StubBehaviour.INSTANT), new PaymentsStub(StubBehaviour.INSTANT), notifier,
                OrderServiceSettings.DEFAULT.withClock(clock).withExecutor(Runnable::run).withPayLimit(null).withRelay(relay));
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.onSpinWait();
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }

    /** A notifier that is down (refuses every call, delivering nothing) until a test brings it up. */
    private static final class Switchable implements Notifier {
        final AtomicBoolean up = new AtomicBoolean(true);
        private final Notifier delegate;
        private final AtomicLong calls = new AtomicLong();

        Switchable(Notifier delegate) {
            this.delegate = delegate;
        }

        @Override
        public void notify(RequestContext ctx, Notification notification) {
            long call = calls.getAndIncrement();
            if (!up.get()) {
                throw new DownstreamException("notifier", call, "notifier is down (nothing delivered)");
            }
            delegate.notify(ctx, notification);
        }
    }

    /** Delivers, then on the chosen calls loses the acknowledgement: the sender sees a timeout although the message arrived. */
    private static final class LosingAcks implements Notifier {
        final AtomicLong lostAcks = new AtomicLong();
        private final Notifier delegate;
        private final LongPredicate losesAck;
        private final AtomicLong calls = new AtomicLong();

        LosingAcks(Notifier delegate, LongPredicate losesAck) {
            this.delegate = delegate;
            this.losesAck = losesAck;
        }

        @Override
        public void notify(RequestContext ctx, Notification notification) {
            long call = calls.getAndIncrement();
            delegate.notify(ctx, notification);
            if (losesAck.test(call)) {
                lostAcks.incrementAndGet();
                throw new DownstreamTimeoutException("notifier", call, false);
            }
        }
    }
}
