package archlab.loadgen;

import archlab.request.PoolExhaustedException;
import archlab.request.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The book's fixed request mix: 40% create, 35% get, 25% pay, chosen from the request's sequence
 * number through the book's multiplicative mix, so that every run of every module performs the same
 * operations in the same order. Get reads a pre-created order chosen by the same mix; pay takes the
 * pre-created orders in order, once each (so "paid twice" never pollutes the failures; a caller's retry of a pay
 * pays the same order again, as a real client's would), then, in a run longer than the pool lasts, the orders the
 * run's own creates made, oldest first, once each; an
 * exhausted pool is its own outcome ({@link PoolExhaustedException}), never a silent success.
 *
 * <p>Thread-safety: {@link #execute} is safe from many threads; {@link #prepare} runs once, before.
 */
public final class BookWorkload implements Workload {

    /** The book's customer id. */
    public static final String CUSTOMER = "cust";
    /** The book's one item: SKU, quantity and unit price in cents. */
    public static final String SKU = "sku-a";
    public static final int QUANTITY = 1;
    public static final long UNIT_PRICE_CENTS = 1999;
    /** Orders created before the run as the pay pool, as in the book. */
    public static final int DEFAULT_POOL = 4_000;

    public static final String CREATE = "create";
    public static final String GET = "get";
    public static final String PAY = "pay";
    /** The mix's shares, percent of requests: creates, gets, and pays (the rest). */
    public static final int CREATE_PERCENT = 40;
    public static final int GET_PERCENT = 35;
    public static final int PAY_PERCENT = 100 - CREATE_PERCENT - GET_PERCENT;

    private final OrderTarget target;
    private final List<String> pool;
    private final Draws draws;

    /**
     * What the run drew: shared by a workload and its {@link #via} copy, so that the fixture that owns the first sees
     * the orders the second paid.
     */
    private static final class Draws {
        final AtomicInteger nextToPay = new AtomicInteger();
        /** The order each pay request took: a caller's retry of request n pays the order its first attempt paid. */
        final Map<Long, String> payOrderBySequence = new ConcurrentHashMap<>();
        /** Orders the run's own creates made, oldest first: what pays take once the pool ran out (a long run's). */
        final java.util.Queue<String> createdInTheRun = new java.util.concurrent.ConcurrentLinkedQueue<>();
        /** Orders created in the run that a pay took, in the order they were taken. */
        final java.util.Queue<String> paidFromTheRun = new java.util.concurrent.ConcurrentLinkedQueue<>();
    }

    private BookWorkload(OrderTarget target, List<String> pool, Draws draws) {
        this.target = target;
        this.pool = pool;
        this.draws = draws;
    }

    /**
     * Creates {@code poolSize} orders through {@code target} (no deadline, not measured) and returns the
     * workload that draws on them.
     */
    public static BookWorkload prepare(OrderTarget target, int poolSize) throws Exception {
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be at least 1, was " + poolSize);
        }
        List<String> ids = new ArrayList<>(poolSize);
        for (int i = 0; i < poolSize; i++) {
            ids.add(target.create(RequestContext.background()));
        }
        return new BookWorkload(target, List.copyOf(ids), new Draws());
    }

    /** The book's mix: {@code (n·0x9e3779b97f4a7c15 + 0xbf58476d1ce4e5b9) >> 17} on unsigned 64 bits. */
    public static long mix(long n) {
        return (n * 0x9e3779b97f4a7c15L + 0xbf58476d1ce4e5b9L) >>> 17;
    }

    @Override
    public String operationOf(long sequence) {
        long r = mix(sequence) % 100;
        if (r < CREATE_PERCENT) {
            return CREATE;
        }
        return r < CREATE_PERCENT + GET_PERCENT ? GET : PAY;
    }

    @Override
    public void execute(long sequence, String operation, RequestContext ctx) throws Exception {
        switch (operation) {
            case CREATE -> draws.createdInTheRun.add(target.create(ctx));
            case GET -> target.get(ctx, pool.get((int) (mix(sequence + 7) % pool.size())));
            case PAY -> {
                String id = draws.payOrderBySequence.computeIfAbsent(sequence, n -> nextToPay());
                if (id == null) {
                    throw new PoolExhaustedException("all " + pool.size() + " pre-created orders and every order the run"
                            + " created were paid");
                }
                target.pay(ctx, id);
            }
            default -> throw new IllegalArgumentException("unknown operation " + operation);
        }
    }

    /** @return the next order to pay: the pool's next, then the oldest the run created; null when none is left */
    private String nextToPay() {
        int i = draws.nextToPay.getAndIncrement();
        if (i < pool.size()) {
            return pool.get(i);
        }
        draws.nextToPay.decrementAndGet(); // past the pool the count is the pool's size: a long run cannot overflow it
        String created = draws.createdInTheRun.poll();
        if (created != null) {
            draws.paidFromTheRun.add(created);
        }
        return created;
    }

    /**
     * The same pool through another port: e.g. the same service over HTTP. The copy shares what the run draws (the next
     * order to pay, the orders the run created and paid), so this workload's {@link #pool()} and {@link #paysTaken()}
     * count the copy's pays; call it before either ran.
     */
    public BookWorkload via(OrderTarget other) {
        return new BookWorkload(java.util.Objects.requireNonNull(other, "other"), pool, draws);
    }

    /** @return the port this workload calls */
    public OrderTarget target() {
        return target;
    }

    /**
     * @return the orders pays draw on, in pay order: the pre-created ones, then those the run created that a pay took
     *         once the pre-created ones ran out (a run longer than the book's: 4,000 orders last about 10 s of its load)
     */
    public List<String> pool() {
        if (draws.paidFromTheRun.isEmpty()) {
            return pool;
        }
        List<String> all = new ArrayList<>(pool);
        all.addAll(draws.paidFromTheRun);
        return List.copyOf(all);
    }

    /** @return how many pays took an order so far: from the pre-created pool, then from the run's own creates */
    public int paysTaken() {
        return Math.min(draws.nextToPay.get(), pool.size()) + draws.paidFromTheRun.size();
    }
}
