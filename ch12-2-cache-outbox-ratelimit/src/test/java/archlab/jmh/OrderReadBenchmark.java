package archlab.jmh;

import archlab.clock.NanoClock;
import archlab.downstream.Downstream;
import archlab.order.Item;
import archlab.order.Order;
import archlab.order.OrderService;
import archlab.order.OrderServiceAssembly;
import archlab.order.OrderServiceSettings;
import archlab.order.RateLimiter;
import archlab.request.RequestContext;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The trap: <b>the copy under the lock</b>, undone. ch12-1's {@code get} deep-copied the order by a JSON round trip
 * while holding the service's one lock (ch12-1's {@code OrderReadBenchmark} measures it); here the order is an
 * immutable record, handed out as it is, and a get takes no lock: nothing to copy, nothing to wait for.
 *
 * <p>Side by side, on this checkpoint's read path: the cache hit ({@code OrderCache}, Caffeine: the lookup, and the
 * capturing loader the miss would call) against the table read without a cache (a {@code ConcurrentHashMap} get and
 * the table's read counter), one thread and two; and the token bucket in front of pay ({@code RateLimiter.acquire}:
 * Bucket4j's lock-free {@code tryConsumeAndReturnRemaining}, and the probe object it returns), with a bucket that never
 * runs dry, so that only the admitted path is measured. The bytes per op are what each allocates per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OrderReadBenchmark {

    /** One order, in a service with the read cache (as the chapter's runs) and in one without it. */
    @State(Scope.Benchmark)
    public static class Services {
        OrderService cached;
        OrderService uncached;
        String cachedId;
        String uncachedId;
        final RequestContext ctx = RequestContext.background();

        @Setup
        public void setUp() {
            Downstream instant = Downstream.instant();
            cached = OrderServiceAssembly.assemble(instant.inventory(), instant.payments(), instant.notifier(), OrderServiceSettings.DEFAULT).service();
            uncached = OrderServiceAssembly.assemble(instant.inventory(), instant.payments(), instant.notifier(),
                    OrderServiceSettings.DEFAULT.withCache(null)).service();
            List<Item> items = List.of(new Item("sku-a", 1, 1999), new Item("sku-b", 2, 500));
            cachedId = cached.create(ctx, "cust", items).id();
            uncachedId = uncached.create(ctx, "cust", items).id();
            cached.get(ctx, cachedId); // loaded: every get below is a hit
        }
    }

    /** A token bucket that never runs dry here (a billion tokens a second, a billion in a burst). */
    @State(Scope.Benchmark)
    public static class Limiter {
        final RateLimiter limiter = new RateLimiter("pay", new RateLimiter.Settings(1_000_000_000L, 1_000_000_000L),
                NanoClock.SYSTEM);
        final RequestContext ctx = RequestContext.background();
    }

    @Benchmark
    @Threads(1)
    public Order get_cacheHit_1thread(Services s) {
        return s.cached.get(s.ctx, s.cachedId);
    }

    @Benchmark
    @Threads(2)
    public Order get_cacheHit_2threads(Services s) {
        return s.cached.get(s.ctx, s.cachedId);
    }

    @Benchmark
    @Threads(1)
    public Order get_tableRead_1thread(Services s) {
        return s.uncached.get(s.ctx, s.uncachedId);
    }

    @Benchmark
    @Threads(2)
    public Order get_tableRead_2threads(Services s) {
        return s.uncached.get(s.ctx, s.uncachedId);
    }

    @Benchmark
    @Threads(1)
    public void rateLimiter_tryConsume_1thread(Limiter l) {
        l.limiter.acquire(l.ctx);
    }

    @Benchmark
    @Threads(2)
    public void rateLimiter_tryConsume_2threads(Limiter l) {
        l.limiter.acquire(l.ctx);
    }
}
