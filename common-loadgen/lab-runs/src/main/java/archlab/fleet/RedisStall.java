package archlab.fleet;

import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LatencySummary;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The third load of a {@link FleetRun}: Redis paused ({@code CLIENT PAUSE}: connections stay open, no command is
 * served), and meanwhile reads and pays, open loop, over every instance. Half the reads ask for orders every instance
 * read just before the pause (each first level holds them: <em>warm</em>), half for orders no instance read since they
 * last changed (<em>cold</em>: the first level misses, Redis does not answer within its budget, the store does). The
 * pays, under the quota, show where the pay bucket lives: an instance's own keeps admitting, a shared one cannot be
 * reached. Requests are sent only while Redis is surely paused: the pause lasts {@link #MARGIN} longer than the sending.
 *
 * <p>Not thread-safe: one stall at a time.
 */
public final class RedisStall {

    /** How much longer Redis stays paused than requests are sent: a request sent last still meets a paused Redis. */
    static final Duration MARGIN = Duration.ofMillis(500);

    /**
     * What reads and pays met while Redis was paused.
     *
     * @param paused    how long Redis was paused (the sending, plus {@link #MARGIN})
     * @param reads     reads sent, and how many were answered 200
     * @param warmReads the latencies of reads of orders every first level held
     * @param coldReads the latencies of reads of orders no first level held
     * @param pays      the pays sent (under the quota's rate); 429: a shared bucket that cannot be reached fails closed
     */
    public record Stall(Duration paused, Reads reads, LatencySummary warmReads, LatencySummary coldReads,
                        FleetLoad.PayFlood pays) {
    }

    /**
     * @param sent     reads sent
     * @param answered of those, answered 200 with the order
     */
    public record Reads(long sent, long answered) {
    }

    private RedisStall() {
    }

    /**
     * Creates the pays' orders, reads {@code readRate / 2 × sending} of {@code existing} on every instance (warming every
     * first level), calls {@code pause} with how long to pause Redis, then for {@code sending} reads and pays.
     *
     * @param existing orders no instance has read since their last change, at least {@code readRate × sending}
     */
    static Stall run(FleetLoad load, List<String> existing, Duration sending, int readRate, int payRate,
                     java.util.function.Consumer<Duration> pause) throws InterruptedException {
        List<URI> instances = load.instances();
        int reads = (int) (readRate * sending.toMillis() / 1000);
        int payCount = (int) (payRate * sending.toMillis() / 1000);
        if (reads < 2 || payCount < 1 || existing.size() < reads) {
            throw new IllegalArgumentException("a stall needs at least 2 reads, 1 pay and as many orders as reads; had "
                    + reads + ", " + payCount + " and " + existing.size());
        }
        List<String> warm = existing.subList(0, reads / 2);
        List<String> cold = existing.subList(reads / 2, reads);
        List<String> fresh = load.createMany(payCount, 4);
        LongAdder ignored = new LongAdder();
        for (String id : warm) {
            for (URI instance : instances) {
                load.status(instance, id, ignored);
            }
        }
        LongAdder answered = new LongAdder();
        LongAdder unanswered = new LongAdder();
        FleetLoad.PayTally pays = new FleetLoad.PayTally();
        LatencyHistogram warmLatency = new LatencyHistogram();
        LatencyHistogram coldLatency = new LatencyHistogram();
        List<Thread> threads = new ArrayList<>();
        Duration paused = sending.plus(MARGIN);
        pause.accept(paused);
        long start = System.nanoTime();
        long readInterval = sending.toNanos() / reads;
        long payInterval = sending.toNanos() / payCount;
        int r = 0;
        int p = 0;
        while (r < reads || p < payCount) {
            boolean readNext = p >= payCount || r < reads && r * readInterval <= p * payInterval;
            FleetLoad.parkUntil(start + (readNext ? r * readInterval : p * payInterval));
            if (readNext) {
                URI instance = instances.get(r % instances.size());
                boolean isWarm = r % 2 == 0;
                String id = (isWarm ? warm : cold).get(r / 2);
                LatencyHistogram latency = isWarm ? warmLatency : coldLatency;
                r++;
                threads.add(load.client("stall-read-" + r).start(() -> {
                    long sent = System.nanoTime();
                    if (load.status(instance, id, unanswered).filter(st -> !st.equals(FleetLoad.NOT_FOUND)).isPresent()) {
                        answered.increment();
                    }
                    latency.record(System.nanoTime() - sent);
                }));
            } else {
                URI instance = instances.get(p % instances.size());
                String id = fresh.get(p);
                p++;
                threads.add(load.client("stall-pay-" + p).start(() -> pays.add(load.pay(instance, id))));
            }
        }
        load.joinAll(threads);
        return new Stall(paused, new Reads(reads, answered.sum()), warmLatency.summary(), coldLatency.summary(),
                pays.flood(payCount, sending));
    }
}
