package archlab.http;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The executor Tomcat's connector hands every socket event to (a request to read and serve), measured: how many of its
 * threads were busy at most, and how long each event waited in the queue between Tomcat handing it over and a thread
 * taking it up — the wait the article saw grow "from 0 ms to 400 ms" when all 200 threads were busy.
 *
 * <p>{@link ServerThreads#PLATFORM}: a pool of at most {@value ServerThreads#TOMCAT_MAX_THREADS} platform threads that,
 * like Tomcat's own, starts a new thread for an event until the maximum and queues only after (unbounded queue).
 * {@link ServerThreads#VIRTUAL}: a new virtual thread per event.
 *
 * <p>Thread-safety: safe from every thread; the figures are read while it runs or after.
 */
public final class ServerExecutor implements java.util.concurrent.Executor {

    private final ServerThreads threads;
    private final ExecutorService delegate;
    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger busyMax = new AtomicInteger();
    private final AtomicLong events = new AtomicLong();
    /** Queue waits, nanoseconds. */
    private final ConcurrentHistogram queueWait = new ConcurrentHistogram(3);
    private final ServerSeries series;

    /** An event handed to the delegate, stamped with when it was handed over ({@link System#nanoTime()}). */
    private record Stamped(long handedOver, Runnable event) implements Runnable {
        @Override
        public void run() {
            event.run();
        }
    }

    public ServerExecutor(ServerThreads threads) {
        this.threads = threads;
        this.series = new ServerSeries(busy::get, this::oldestQueuedNanos);
        if (threads == ServerThreads.PLATFORM) {
            AtomicInteger n = new AtomicInteger();
            ThreadPoolExecutor pool = new ThreadPoolExecutor(ServerThreads.TOMCAT_MAX_THREADS, ServerThreads.TOMCAT_MAX_THREADS,
                    60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "http-exec-" + n.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
            pool.allowCoreThreadTimeOut(true);
            this.delegate = pool;
        } else {
            this.delegate = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("http-v-", 0).factory());
        }
    }

    /** When the event the current thread runs was handed over ({@link System#nanoTime()}); unset outside an event. */
    private static final ThreadLocal<long[]> HANDED_OVER = new ThreadLocal<>();

    @Override
    public void execute(Runnable event) {
        long handedOver = System.nanoTime();
        delegate.execute(new Stamped(handedOver, () -> {
            long takenUp = System.nanoTime();
            queueWait.recordValue(Math.max(0, takenUp - handedOver));
            events.incrementAndGet();
            int busyNow = busy.incrementAndGet();
            busyMax.accumulateAndGet(busyNow, Math::max);
            series.record(takenUp, Math.max(0, takenUp - handedOver), busyNow);
            HANDED_OVER.set(new long[] {handedOver});
            try {
                event.run();
            } finally {
                HANDED_OVER.remove();
                busy.decrementAndGet();
            }
        }));
    }

    /** @return how long the oldest event still queued has waited, ns; 0 with none (always 0 on virtual threads) */
    private long oldestQueuedNanos() {
        if (delegate instanceof ThreadPoolExecutor pool && pool.getQueue().peek() instanceof Stamped oldest) {
            return Math.max(0, System.nanoTime() - oldest.handedOver());
        }
        return 0;
    }

    /**
     * @param otherwise what to return on a thread that runs no event of a ServerExecutor
     * @return when the socket event the calling thread serves was handed to the executor, {@link System#nanoTime()}:
     *         about when the request's bytes arrived, before any wait in the queue
     */
    static long handedOverNanos(long otherwise) {
        long[] t = HANDED_OVER.get();
        return t == null ? otherwise : t[0];
    }

    /** @return the most threads that ran an event at once */
    public int busyMax() {
        return busyMax.get();
    }

    /** @return socket events taken up by a thread so far */
    public long events() {
        return events.get();
    }

    /** @return a copy of the queue waits so far, in nanoseconds */
    public Histogram queueWait() {
        return queueWait.copy();
    }

    /** @return the per-interval view (queue wait, busy threads), started by {@link ServerSeries#start()} */
    public ServerSeries series() {
        return series;
    }

    /** @return the thread kind */
    public ServerThreads threads() {
        return threads;
    }

    /** Stops taking events and lets the running ones finish (at most 5 s). */
    public void shutdown() {
        series.stop();
        delegate.shutdown();
        try {
            delegate.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        delegate.shutdownNow();
    }
}
