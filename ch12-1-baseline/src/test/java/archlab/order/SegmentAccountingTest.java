package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamSettings;
import archlab.request.Deadline;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.trace.RequestTrace;
import archlab.trace.Segments;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * "Where the time went" accounts for every nanosecond of a request, on the real service: the segments
 * of one request add up to its latency, and each downstream segment covers its stub's delay.
 */
class SegmentAccountingTest {

    @Test
    @DisplayName("the segments of one pay add up exactly to its latency, and inventory / payment / notify each cover their stub's delay")
    void segmentsOfOnePayAddUpToItsLatency() {
        Duration inventory = Duration.ofMillis(3);
        Duration payment = Duration.ofMillis(5);
        Duration notify = Duration.ofMillis(2);
        Downstream ds = Downstream.create(DownstreamSettings.BOOK.withLatencies(inventory, payment, notify));
        OrderService service = new OrderService(ds.inventory(), ds.payments(), ds.notifier());
        String id = service.create(RequestContext.background(), "cust", List.of(new Item("sku-a", 2, 100), new Item("sku-b", 1, 50))).id();

        NanoClock clock = NanoClock.SYSTEM;
        long planned = clock.nanoTime();
        RequestTrace trace = new RequestTrace(clock, planned);
        trace.begin(clock.nanoTime());
        RequestContext ctx = new RequestContext(1, planned, Deadline.NONE, clock, trace);
        service.pay(ctx, id);
        long end = clock.nanoTime();
        trace.finish(end);

        long sum = 0;
        for (int i = 0; i < trace.segmentCount(); i++) {
            sum += trace.selfNanos(i);
        }
        assertThat(sum).as("Σ self = end − planned").isEqualTo(end - planned).isEqualTo(trace.totalNanos());
        assertThat(trace.selfNanos(OrderService.INVENTORY)).as("two items, two reserves")
                .isGreaterThanOrEqualTo(2 * inventory.toNanos());
        assertThat(trace.selfNanos(OrderService.PAYMENT)).isGreaterThanOrEqualTo(payment.toNanos());
        assertThat(trace.selfNanos(OrderService.NOTIFY)).isGreaterThanOrEqualTo(notify.toNanos());
        assertThat(trace.inclusiveNanos(OrderTable.LOCK_HELD)).as("the lock is held across all three calls")
                .isGreaterThanOrEqualTo(trace.selfNanos(OrderService.INVENTORY) + trace.selfNanos(OrderService.PAYMENT)
                        + trace.selfNanos(OrderService.NOTIFY));
        assertThat(trace.selfNanos(Segments.UNMARKED) + trace.selfNanos(Segments.SCHEDULING))
                .isLessThan(trace.totalNanos());
    }
}
