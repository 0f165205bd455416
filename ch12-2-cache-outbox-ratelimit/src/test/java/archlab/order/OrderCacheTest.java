package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.InventoryStub;
import archlab.downstream.LatencyModel;
import archlab.downstream.NotifierStub;
import archlab.downstream.Payments;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The read cache: never stale after a change, a stream of bad ids held off the table by negative
 * caching, concurrent misses coalesced, lifetimes jittered, size bounded. Time is a {@link FakeClock};
 * Caffeine's maintenance runs on the caller's thread.
 */
class OrderCacheTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final List<Item> ONE_ITEM = List.of(new Item("sku-a", 1, 1999));

    private final FakeClock clock = new FakeClock();

    private OrderServiceAssembly service(LatencyModel tableReadLatency) {
        return OrderServiceAssembly.assemble(new InventoryStub(StubBehaviour.INSTANT), new PaymentsStub(StubBehaviour.INSTANT),
                new NotifierStub(StubBehaviour.INSTANT), OrderServiceSettings.DEFAULT.withClock(clock)
                .withExecutor(Runnable::run).withPayLimit(null).withTableReadLatency(tableReadLatency));
    }

    @Test
    @DisplayName("a get after a pay never sees the order as it was before: CREATED is cached, the pay invalidates it, the next get reads PAID")
    void neverStaleAfterPay() {
        OrderServiceAssembly parts = service(LatencyModel.ZERO);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);
        assertThat(service.get(CTX, id).status()).as("now from the cache").isEqualTo(OrderStatus.CREATED);
        long readsBefore = parts.tableReads();

        service.pay(CTX, id);

        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.PAID);
        assertThat(parts.tableReads()).as("the invalidated entry was read again").isEqualTo(readsBefore + 1);
        assertThat(service.get(CTX, id).version()).isEqualTo(1);
    }

    @Test
    @DisplayName("a get during a pay caches PAYING; the pay's commit invalidates it, so the get after the pay reads PAID")
    void theCommitInvalidatesWhatWasCachedMidPay() {
        AtomicReference<OrderService> holder = new AtomicReference<>();
        AtomicReference<OrderStatus> seenMidPay = new AtomicReference<>();
        PaymentsStub stub = new PaymentsStub(StubBehaviour.INSTANT);
        Payments readingDuringCharge = new Payments() {
            @Override
            public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
                seenMidPay.set(holder.get().get(CTX, request.orderId()).status()); // no lock is held here
                return stub.charge(ctx, request);
            }

            @Override
            public Optional<ChargeResult> findByIdempotencyKey(String key) {
                return stub.findByIdempotencyKey(key);
            }
        };
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(new InventoryStub(StubBehaviour.INSTANT), readingDuringCharge,
                new NotifierStub(StubBehaviour.INSTANT), OrderServiceSettings.DEFAULT.withClock(clock)
                .withExecutor(Runnable::run).withPayLimit(null));
        OrderService service = parts.service();
        holder.set(service);
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        service.pay(CTX, id);

        assertThat(seenMidPay.get()).isEqualTo(OrderStatus.PAYING);
        assertThat(parts.cache().orElseThrow().contains(id)).as("the commit dropped the PAYING entry").isFalse();
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.PAID);
    }

    @Test
    @DisplayName("a write never waits for a read: a pay completes while a get's table read of the same order is held, and that read, which saw the row before the pay, is not put back")
    void aWriteNeverWaitsForAReadAndTheOldRowStaysOut() throws Exception {
        CountDownLatch readInProgress = new CountDownLatch(1);
        CountDownLatch releaseRead = new CountDownLatch(1);
        AtomicLong blockedRead = new AtomicLong(-1);
        OrderServiceAssembly parts = service(readIndex -> {
            if (blockedRead.get() == readIndex) { // the reply of this one read is held back until the test lets it go
                readInProgress.countDown();
                awaitQuietly(releaseRead);
            }
            return Duration.ZERO;
        });
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();
        blockedRead.set(parts.tableReads()); // the next read

        CompletableFuture<Order> oldRead = new CompletableFuture<>();
        Thread reader = Thread.ofPlatform().start(() -> oldRead.complete(service.get(CTX, id)));
        try {
            assertThat(readInProgress.await(30, TimeUnit.SECONDS)).isTrue(); // it has read CREATED and is on its way back

            CompletableFuture<Order> pay = new CompletableFuture<>();
            Thread.ofPlatform().daemon().start(() -> pay.complete(service.pay(CTX, id)));
            assertThat(pay).as("the pay (its claim's and its commit's invalidations) finishes while the read is held")
                    .succeedsWithin(Duration.ofSeconds(10)).extracting(Order::status).isEqualTo(OrderStatus.PAID);
            assertThat(parts.cache().orElseThrow().contains(id)).as("the pending load's entry is gone").isFalse();
        } finally {
            releaseRead.countDown();
            reader.join(30_000);
        }
        assertThat(oldRead.get(1, TimeUnit.SECONDS).status()).as("the read that began before the pay").isEqualTo(OrderStatus.CREATED);
        assertThat(parts.cache().orElseThrow().contains(id)).as("the old read, completed, was not put back").isFalse();
        CompletableFuture<Order> after = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> after.complete(service.get(CTX, id)));
        assertThat(after).as("a get after the pay returned").succeedsWithin(Duration.ofSeconds(10))
                .extracting(Order::status).isEqualTo(OrderStatus.PAID);
    }

    @Test
    @DisplayName("a load that fails is not remembered: the get that made it gets the table's error, and the next get reads the table again")
    void aFailedLoadIsNotRemembered() {
        AtomicLong loads = new AtomicLong();
        OrderCache cache = new OrderCache(OrderCache.Settings.DEFAULT, clock, Runnable::run, (ctx, id) -> {
            if (loads.incrementAndGet() == 1) {
                throw new DatabaseException("could not read order " + id, new java.sql.SQLException("connection reset"));
            }
            return order(id);
        });
        assertThatThrownBy(() -> cache.get(CTX, "ord-000001")).isInstanceOf(DatabaseException.class)
                .hasMessageContaining("could not read order ord-000001");
        assertThat(cache.contains("ord-000001")).isFalse();
        assertThat(cache.get(CTX, "ord-000001")).isPresent();
        assertThat(loads.get()).isEqualTo(2);
    }

    @Test
    @DisplayName("a burst of unknown ids reaches the table once per id within the negative-cache time, and again after it")
    void unknownIdsReachTheTableOncePerNegativeLifetime() {
        OrderServiceAssembly parts = service(LatencyModel.ZERO);
        OrderService service = parts.service();
        List<String> unknown = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            unknown.add("ord-9" + String.format("%05d", i));
        }
        for (int round = 0; round < 20; round++) {
            for (String id : unknown) {
                assertThatThrownBy(() -> service.get(CTX, id)).isInstanceOf(OrderNotFoundException.class);
            }
            clock.advance(Duration.ofMillis(10)); // 200 ms in all: within the 500 ms negative lifetime
        }
        assertThat(parts.tableReads()).isEqualTo(unknown.size());

        clock.advance(OrderCache.Settings.DEFAULT.negativeTtl());
        for (String id : unknown) {
            assertThatThrownBy(() -> service.get(CTX, id)).isInstanceOf(OrderNotFoundException.class);
        }
        assertThat(parts.tableReads()).isEqualTo(2L * unknown.size());
    }

    @Test
    @DisplayName("concurrent misses of one id load it once: 15 gets that arrive during the load wait for it and share its result")
    void concurrentMissesAreCoalesced() throws Exception {
        CountDownLatch readInProgress = new CountDownLatch(1);
        CountDownLatch releaseRead = new CountDownLatch(1);
        OrderServiceAssembly parts = service(readIndex -> {
            readInProgress.countDown();
            awaitQuietly(releaseRead);
            return Duration.ZERO;
        });
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        List<CompletableFuture<Order>> gets = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        CompletableFuture<Order> first = new CompletableFuture<>();
        threads.add(Thread.ofPlatform().start(() -> first.complete(service.get(CTX, id))));
        assertThat(readInProgress.await(30, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 15; i++) {
            CompletableFuture<Order> f = new CompletableFuture<>();
            gets.add(f);
            threads.add(Thread.ofPlatform().start(() -> f.complete(service.get(CTX, id))));
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (threads.stream().skip(1).anyMatch(t -> t.getState() != Thread.State.BLOCKED && t.getState() != Thread.State.WAITING)) {
            assertThat(System.nanoTime()).as("the other gets wait for the load").isLessThan(until);
            Thread.sleep(1);
        }
        releaseRead.countDown();
        for (Thread t : threads) {
            t.join(30_000);
        }
        for (CompletableFuture<Order> f : gets) {
            assertThat(f.get(1, TimeUnit.SECONDS)).isSameAs(first.get(1, TimeUnit.SECONDS));
        }
        assertThat(parts.tableReads()).isEqualTo(1);
    }

    @Test
    @DisplayName("entries loaded at the same instant expire at different times, each within ttl × (1 ± jitter)")
    void lifetimesAreJitteredWithinTheirBounds() {
        OrderCache.Settings settings = new OrderCache.Settings(10_000, Duration.ofSeconds(1), 0.2, Duration.ofMillis(100));
        OrderCache cache = new OrderCache(settings, clock, Runnable::run, (ctx, id) -> order(id));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ids.add(String.format("ord-%06d", i + 1));
            cache.get(CTX, ids.get(i));
        }
        clock.advance(Duration.ofMillis(799));
        assertThat(ids).as("none before ttl × 0.8").allMatch(cache::contains);
        clock.advance(Duration.ofMillis(201)); // at ttl
        long alive = ids.stream().filter(cache::contains).count();
        assertThat(alive).as("at ttl, some are gone and some are not").isBetween(1L, ids.size() - 1L);
        clock.advance(Duration.ofMillis(200)); // at ttl × 1.2
        assertThat(ids).as("all gone at ttl × 1.2").noneMatch(cache::contains);
    }

    @Test
    @DisplayName("the cache is bounded: loading ten times its maximum size leaves at most the maximum")
    void sizeIsBounded() {
        OrderCache cache = new OrderCache(new OrderCache.Settings(100, Duration.ofMinutes(1), 0.2, Duration.ofSeconds(1)),
                clock, Runnable::run, (ctx, id) -> order(id));
        for (int i = 0; i < 1_000; i++) {
            cache.get(CTX, String.format("ord-%06d", i + 1));
        }
        cache.cleanUp();
        assertThat(cache.estimatedSize()).isLessThanOrEqualTo(100);
    }

    @Test
    @DisplayName("the hit ratio counts what did not reach the table: one load and three hits is 0.75")
    void hitRatioIsReported() {
        AtomicLong loads = new AtomicLong();
        OrderCache cache = new OrderCache(OrderCache.Settings.DEFAULT, clock, Runnable::run, (ctx, id) -> {
            loads.incrementAndGet();
            return order(id);
        });
        for (int i = 0; i < 4; i++) {
            assertThat(cache.get(CTX, "ord-000001")).isPresent();
        }
        assertThat(loads.get()).isEqualTo(1);
        assertThat(cache.hitRatio()).isEqualTo(0.75);
        assertThat(cache.stats().missCount()).isEqualTo(1);
    }

    @Test
    @DisplayName("cache settings refuse nonsense with a message naming the setting")
    void settingsAreValidated() {
        assertThatThrownBy(() -> new OrderCache.Settings(0, Duration.ofSeconds(1), 0.1, Duration.ofSeconds(1)))
                .hasMessageContaining("maximumSize");
        assertThatThrownBy(() -> new OrderCache.Settings(1, Duration.ZERO, 0.1, Duration.ofSeconds(1)))
                .hasMessageContaining("ttl");
        assertThatThrownBy(() -> new OrderCache.Settings(1, Duration.ofSeconds(1), 1.0, Duration.ofSeconds(1)))
                .hasMessageContaining("jitter");
        assertThatThrownBy(() -> new OrderCache.Settings(1, Duration.ofSeconds(1), 0.1, Duration.ofSeconds(-1)))
                .hasMessageContaining("negativeTtl");
    }

    private static Order order(String id) {
        return new Order(id, "cust", ONE_ITEM, 1999);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
