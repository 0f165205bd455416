package archlab.fleet;

import archlab.http.HttpOrderTarget;
import archlab.loadgen.BookWorkload;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The loads a {@link FleetRun} puts on a fleet of instances over HTTP, each spreading its requests over every
 * instance:
 * <ul>
 *   <li>{@link #staleReads}: clients that create an order on one instance, read it on every instance (each first level
 *       now holds it), pay it on the first, and once the pay is acknowledged read it on another instance after fixed
 *       delays. A read that answers an order older than one an earlier response acknowledged — not PAID after the pay's
 *       200 — is <em>stale</em>. The delays sample the window: the last stale read says the window reached at least
 *       that far after the acknowledgement, and the first fresh one after it that it had closed by then.</li>
 *   <li>{@link #payFlood}: orders created first, then paid at a fixed rate, open loop (each pay sent at its time on a
 *       thread of its own, whatever the answers before), round robin over the instances: what the fleet's token buckets
 *       admit against the provider's quota.</li>
 *   <li>{@link RedisStall}: Redis paused, reads of existing orders and pays under the quota: what each level of the
 *       service does without its cache's second level and its shared bucket.</li>
 * </ul>
 * Closed loop for the reads on purpose (the point is the order of two acknowledged events, not a rate); open loop for
 * the pays (the point is a rate the fleet does not choose).
 *
 * <p>A client thread that fails on something other than a missing answer (an answer the runner cannot read) fails the
 * load: it is rethrown once every client has ended, never lost with its thread.
 *
 * <p>Not thread-safe: one load at a time (each is a load run).
 */
public final class FleetLoad implements AutoCloseable {

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([A-Za-z0-9_-]{1,64})\"");
    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([A-Z_]{1,32})\"");
    /** Each request's deadline, sent as {@code X-Deadline-Ms}. */
    static final Duration DEADLINE = Duration.ofSeconds(2);
    /** What {@link #status} answers for a 404. */
    static final String NOT_FOUND = "NOT_FOUND";

    /**
     * What the read clients saw.
     *
     * @param orders              orders whose pay was acknowledged and then read on another instance
     * @param readsAfterPay       reads of those orders after the pay's acknowledgement
     * @param staleAfterPay       of those, reads that did not answer PAID
     * @param lastStaleMillis     the latest stale read after a pay's acknowledgement, from the acknowledgement to the
     *                            answer: the window reached at least that far; 0 when none was stale
     * @param notFoundAfterCreate reads right after a create's 201 that answered "no such order" (stale too)
     * @param skipped             what was not read
     */
    public record StaleReads(long orders, long readsAfterPay, long staleAfterPay, double lastStaleMillis,
                             long notFoundAfterCreate, Skipped skipped) {

        /** @return stale reads after a pay per read after a pay, 0 when none was read */
        public double staleRate() {
            return readsAfterPay == 0 ? 0.0 : (double) staleAfterPay / readsAfterPay;
        }
    }

    /**
     * @param unanswered  requests with no answer in time (not counted as reads)
     * @param paysRefused pays answered other than 200 (a bucket's 429 at the start, when every client pays at once):
     *                    their orders are not read after a pay
     */
    public record Skipped(long unanswered, long paysRefused) {
    }

    /**
     * What the pay flood saw.
     *
     * @param offered     pays sent
     * @param paid        answered 200
     * @param limited     answered 429: refused by an instance's token bucket, before any downstream call
     * @param failures    pays answered otherwise (503: the provider refused the charge over its quota, or another
     *                    downstream error; 504: a deadline passed), by status, each with the first error message seen
     * @param unanswered  no answer in time
     * @param sent        from the first pay sent to the last
     */
    public record PayFlood(long offered, long paid, long limited, Failures failures, long unanswered, Duration sent) {

        /** @return pays answered neither 200 nor 429 */
        public long failed() {
            return failures.byStatus().values().stream().mapToLong(Long::longValue).sum();
        }


        /** @return pays that got past the fleet's buckets: every pay not answered 429 (an unanswered one counted as admitted) */
        public long admitted() {
            return offered - limited;
        }
    }

    /**
     * Answers other than 200 and 429.
     *
     * @param byStatus how many, by HTTP status
     * @param examples the first error message seen of each status (the server's {@code error})
     */
    public record Failures(SortedMap<Integer, Long> byStatus, SortedMap<Integer, String> examples) {
        public Failures {
            byStatus = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(byStatus));
            examples = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(examples));
        }
    }

    /** Counts pays' answers as they come, from any thread: 200 paid, 429 limited, none in time, any other a failure. */
    static final class PayTally {
        private final LongAdder paid = new LongAdder();
        private final LongAdder limited = new LongAdder();
        private final LongAdder unanswered = new LongAdder();
        private final ConcurrentSkipListMap<Integer, Long> counts = new ConcurrentSkipListMap<>();
        private final ConcurrentSkipListMap<Integer, String> examples = new ConcurrentSkipListMap<>();

        void add(Answer a) {
            switch (a.status()) {
                case 200 -> paid.increment();
                case 429 -> limited.increment();
                case -1 -> unanswered.increment();
                default -> {
                    counts.merge(a.status(), 1L, Long::sum);
                    Matcher m = ERROR.matcher(a.body());
                    examples.putIfAbsent(a.status(), m.find() ? m.group(1) : a.body().substring(0, Math.min(200, a.body().length())));
                }
            }
        }

        /** @return the pays' figures, {@code offered} of them sent over {@code sent} */
        PayFlood flood(long offered, Duration sent) {
            return new PayFlood(offered, paid.sum(), limited.sum(), new Failures(counts, examples), unanswered.sum(), sent);
        }
    }

    /** An HTTP answer: its status (-1: none in time) and body. */
    record Answer(int status, String body) {
    }

    private static final Pattern ERROR = Pattern.compile("\"error\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.){1,300})");

    private final List<URI> instances;
    private final HttpClient http;
    /** The last flood's orders, for the stall's reads. */
    private List<String> floodOrders = List.of();
    /** The first failure of a client thread since the last {@link #joinAll}. */
    private final java.util.concurrent.atomic.AtomicReference<Throwable> clientFailure = new java.util.concurrent.atomic.AtomicReference<>();

    FleetLoad(List<URI> instances) {
        this.instances = List.copyOf(instances);
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(DEADLINE).build();
    }

    /**
     * @param clients   concurrent clients
     * @param duration  how long clients start new orders
     * @param readDelays delays after a pay's acknowledgement at which another instance is read, from the acknowledgement
     */
    StaleReads staleReads(int clients, Duration duration, List<Duration> readDelays) throws InterruptedException {
        LongAdder orders = new LongAdder();
        LongAdder reads = new LongAdder();
        LongAdder stale = new LongAdder();
        LongAdder notFound = new LongAdder();
        LongAdder unanswered = new LongAdder();
        LongAdder paysRefused = new LongAdder();
        LongAccumulator longest = new LongAccumulator(Math::max, 0);
        long until = System.nanoTime() + duration.toNanos();
        AtomicLong turn = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            threads.add(client("fleet-reader-" + c).start(() -> {
                while (System.nanoTime() - until < 0 && !Thread.currentThread().isInterrupted()) {
                    int home = (int) (turn.getAndIncrement() % instances.size());
                    URI writer = instances.get(home);
                    URI other = instances.get((home + 1) % instances.size());
                    Optional<String> id = create(writer);
                    if (id.isEmpty()) {
                        unanswered.increment();
                        continue;
                    }
                    for (URI any : instances) { // every first level now holds the order as CREATED
                        if (status(any, id.get(), unanswered).filter(NOT_FOUND::equals).isPresent()) {
                            notFound.increment();
                        }
                    }
                    int paid = pay(writer, id.get()).status();
                    if (paid != 200) {
                        (paid == -1 ? unanswered : paysRefused).increment();
                        continue;
                    }
                    long paidAck = System.nanoTime();
                    orders.increment();
                    for (Duration delay : readDelays) {
                        parkUntil(paidAck + delay.toNanos());
                        Optional<String> s = status(other, id.get(), unanswered);
                        if (s.isPresent()) {
                            reads.increment();
                            if (!s.get().equals("PAID")) {
                                stale.increment();
                                longest.accumulate(System.nanoTime() - paidAck);
                            }
                        }
                    }
                }
            }));
        }
        joinAll(threads);
        return new StaleReads(orders.sum(), reads.sum(), stale.sum(), longest.get() / 1e6, notFound.sum(),
                new Skipped(unanswered.sum(), paysRefused.sum()));
    }

    /** A virtual client thread whose failure is kept for {@link #joinAll} to rethrow. */
    Thread.Builder client(String name) {
        return Thread.ofVirtual().name(name).uncaughtExceptionHandler((t, e) -> clientFailure.compareAndSet(null, e));
    }

    /** Waits for every thread; rethrows the first client failure, if any. */
    void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join();
        }
        Throwable failed = clientFailure.getAndSet(null);
        if (failed != null) {
            throw new IllegalStateException("a load client failed: " + failed.getMessage(), failed);
        }
    }

    /** Parks until {@code deadlineNanos} ({@link System#nanoTime()}), again after an early return. */
    static void parkUntil(long deadlineNanos) {
        long wait;
        while ((wait = deadlineNanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }

    /**
     * @param ratePerSecond pays per second over the whole fleet
     * @param duration      how long pays are sent
     * @param creators      concurrent clients creating the orders first
     */
    PayFlood payFlood(int ratePerSecond, Duration duration, int creators) throws InterruptedException {
        int total = (int) (ratePerSecond * duration.toNanos() / 1_000_000_000L);
        List<String> ids = createMany(total, creators);
        floodOrders = ids;
        PayTally tally = new PayTally();
        long intervalNanos = 1_000_000_000L / ratePerSecond;
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>(ids.size());
        long last = start;
        for (int i = 0; i < ids.size(); i++) {
            parkUntil(start + i * intervalNanos);
            last = System.nanoTime();
            URI instance = instances.get(i % instances.size());
            String id = ids.get(i);
            threads.add(client("fleet-pay-" + i).start(() -> tally.add(pay(instance, id))));
        }
        joinAll(threads);
        return tally.flood(ids.size(), Duration.ofNanos(Math.max(1, last - start + intervalNanos)));
    }

    /** @return the last {@link #payFlood}'s orders */
    List<String> floodOrders() {
        return floodOrders;
    }

    /** @return the instances, in the order requests go round them */
    List<URI> instances() {
        return instances;
    }

    /** Creates {@code total} orders from {@code creators} clients, round robin over the instances; fails when one is refused. */
    List<String> createMany(int total, int creators) throws InterruptedException {
        List<String> ids = java.util.Collections.synchronizedList(new ArrayList<>(total));
        AtomicLong next = new AtomicLong();
        AtomicBoolean failed = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < creators; c++) {
            threads.add(client("fleet-create-" + c).start(() -> {
                long n;
                while ((n = next.getAndIncrement()) < total && !failed.get()) {
                    Optional<String> id = create(instances.get((int) (n % instances.size())));
                    if (id.isPresent()) {
                        ids.add(id.get());
                    } else {
                        failed.set(true);
                    }
                }
            }));
        }
        joinAll(threads);
        if (failed.get()) {
            throw new IllegalStateException("the fleet did not create the pay flood's orders (a create went unanswered or"
                    + " was refused); created " + ids.size() + " of " + total);
        }
        return List.copyOf(ids);
    }

    Optional<String> create(URI base) {
        try {
            HttpResponse<String> r = http.send(request(base.resolve("/orders"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"customer\":\"" + BookWorkload.CUSTOMER + "\"}"))
                    .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
            Matcher id = ID.matcher(r.body());
            return r.statusCode() == 201 && id.find() ? Optional.of(id.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * @return the order's status as answered, {@value #NOT_FOUND} for a 404, empty when there was no answer in time
     * @throws IllegalStateException when a 200 says no status (the served target does not say it)
     */
    Optional<String> status(URI base, String id, LongAdder unanswered) {
        try {
            HttpResponse<String> r = http.send(request(base.resolve("/orders/" + id)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 404) {
                return Optional.of(NOT_FOUND);
            }
            Matcher s = STATUS.matcher(r.body());
            if (r.statusCode() == 200 && s.find()) {
                return Optional.of(s.group(1));
            }
            if (r.statusCode() == 200) {
                throw new IllegalStateException("GET /orders/" + id + " answered no status: the served fixture's target"
                        + " must say it (OrderTarget.status); body " + r.body());
            }
        } catch (IOException e) {
            // no answer in time: counted below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        unanswered.increment();
        return Optional.empty();
    }

    /** @return the pay's answer; status -1 when it had none in time */
    Answer pay(URI base, String id) {
        try {
            HttpResponse<String> r = http.send(request(base.resolve("/orders/" + id + "/pay"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body() == null ? "" : r.body());
        } catch (IOException e) {
            return new Answer(-1, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, "");
        }
    }

    private static HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(DEADLINE.plusSeconds(1))
                .header(HttpOrderTarget.DEADLINE_HEADER, Long.toString(DEADLINE.toMillis()));
    }

    @Override
    public void close() {
        http.close();
    }
}
