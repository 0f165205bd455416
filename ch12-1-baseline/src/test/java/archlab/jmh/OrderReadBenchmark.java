package archlab.jmh;

import archlab.downstream.Downstream;
import archlab.order.Item;
import archlab.order.Order;
import archlab.order.OrderService;
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
 * The trap: <b>the copy under the lock</b>. ch12-1's {@code get} takes the service's one lock and, holding it, deep
 * copies the order by a JSON round trip ({@code json.copy}) so that the caller cannot change the stored object: the
 * bytes per op are that copy's garbage, and on two threads the second waits for the first's copy.
 *
 * <p>Wrong, here: this is the baseline as the chapter starts; the right side is ch12-2's {@code OrderReadBenchmark},
 * which measures an immutable order handed out as it is (the same package in every checkpoint: each measures its
 * own). One order, created in the setup; the downstream stubs answer at once and take no part in a get.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OrderReadBenchmark {

    @State(Scope.Benchmark)
    public static class Service {
        OrderService service;
        String id;
        final RequestContext ctx = RequestContext.background();

        @Setup
        public void setUp() {
            Downstream instant = Downstream.instant();
            service = new OrderService(instant.inventory(), instant.payments(), instant.notifier());
            id = service.create(ctx, "cust", List.of(new Item("sku-a", 1, 1999), new Item("sku-b", 2, 500))).id();
        }
    }

    @Benchmark
    @Threads(1)
    public Order get_jsonCopyUnderLock_1thread(Service s) {
        return s.service.get(s.ctx, s.id);
    }

    @Benchmark
    @Threads(2)
    public Order get_jsonCopyUnderLock_2threads(Service s) {
        return s.service.get(s.ctx, s.id);
    }
}
