package archlab.http.wire;

import archlab.loadgen.BookWorkload;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The book's mix for the {@link WireOpenLoop}, request for request what {@link BookWorkload} does in process: the
 * same operation per sequence number ({@link BookWorkload#operationOf}), a get of the pool's order the same mix picks,
 * a pay of the pool's next unpaid order (in turn, once each). Every request is encoded before the run: one create, a
 * get and a pay per order of the pool.
 *
 * <p>Where it differs: in process a pay past the end of the pool is not sent ({@code pool_exhausted}); on the wire a
 * request must be sent, so it pays the pool's orders again from the first (the server answers 409: the order is paid)
 * and {@link #paysBeyondPool()} counts them, for the report to take out of the service's failures.
 *
 * <p>Thread-safety: {@link #requestFor} is safe from several event loops at once.
 */
public final class WireBookWorkload implements WireWorkload {

    private final WireRequest create;
    private final WireRequest[] gets;
    private final WireRequest[] pays;
    private final BookWorkload book;
    private final AtomicInteger nextPay = new AtomicInteger();
    private final LongAdder beyondPool = new LongAdder();

    private WireBookWorkload(BookWorkload book, WireRequest create, WireRequest[] gets, WireRequest[] pays) {
        this.book = book;
        this.create = create;
        this.gets = gets;
        this.pays = pays;
    }

    /**
     * @param book the book's workload, its pool pre-created on the server's service
     * @param base the server, {@code http://host:port}
     * @throws IllegalArgumentException for a pool id that cannot be a path segment
     */
    public static WireBookWorkload of(BookWorkload book, URI base) {
        String host = base.getHost() + ":" + base.getPort();
        List<String> pool = book.pool();
        WireRequest[] gets = new WireRequest[pool.size()];
        WireRequest[] pays = new WireRequest[pool.size()];
        for (int i = 0; i < pool.size(); i++) {
            gets[i] = WireRequest.get(BookWorkload.GET, host, "/orders/" + pool.get(i));
            pays[i] = WireRequest.post(BookWorkload.PAY, host, "/orders/" + pool.get(i) + "/pay", null);
        }
        WireRequest create = WireRequest.post(BookWorkload.CREATE, host, "/orders",
                "{\"customer\":\"" + BookWorkload.CUSTOMER + "\"}");
        return new WireBookWorkload(book, create, gets, pays);
    }

    @Override
    public WireRequest requestFor(long sequence) {
        return switch (book.operationOf(sequence)) {
            case BookWorkload.CREATE -> create;
            case BookWorkload.GET -> gets[(int) (BookWorkload.mix(sequence + 7) % gets.length)];
            default -> {
                int i = nextPay.getAndIncrement();
                if (i >= pays.length) {
                    beyondPool.increment();
                }
                yield pays[Math.floorMod(i, pays.length)];
            }
        };
    }

    /** @return pays sent after the pool's last order was taken (each a pay of a paid order) */
    public long paysBeyondPool() {
        return beyondPool.sum();
    }
}
