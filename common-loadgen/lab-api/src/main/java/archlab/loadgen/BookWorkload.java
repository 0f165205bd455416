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
 * pays the same order again, as a real client's would), and an
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
    private final AtomicInteger nextToPay = new AtomicInteger();
    /** The pool index each pay request took: a caller's retry of request n pays the order its first attempt paid. */
    private final Map<Long, Integer> payIndexBySequence = new ConcurrentHashMap<>();

    private BookWorkload(OrderTarget target, List<String> pool) {
        this.target = target;
        this.pool = pool;
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
        return new BookWorkload(target, List.copyOf(ids));
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
            case CREATE -> target.create(ctx);
            case GET -> target.get(ctx, pool.get((int) (mix(sequence + 7) % pool.size())));
            case PAY -> {
                int i = payIndexBySequence.computeIfAbsent(sequence, n -> nextToPay.getAndIncrement());
                if (i >= pool.size()) {
                    throw new PoolExhaustedException("all " + pool.size() + " pre-created orders were paid");
                }
                target.pay(ctx, pool.get(i));
            }
            default -> throw new IllegalArgumentException("unknown operation " + operation);
        }
    }

    /**
     * The same pool, drawn on afresh, through another port: e.g. the same service over HTTP. The pays start again from
     * the pool's first order, so call it before this workload ran.
     */
    public BookWorkload via(OrderTarget other) {
        return new BookWorkload(java.util.Objects.requireNonNull(other, "other"), pool);
    }

    /** @return the port this workload calls */
    public OrderTarget target() {
        return target;
    }

    /** @return the pre-created order ids, in pay order */
    public List<String> pool() {
        return pool;
    }

    /** @return how many pays took an order from the pool so far */
    public int paysTaken() {
        return Math.min(nextToPay.get(), pool.size());
    }
}
