package archlab.claims;

import static archlab.claims.Bench.request;

import archlab.downstream.ErrorInjection;
import archlab.downstream.StubBehaviour;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * What a read cache must not break: a client that wrote reads its write. After create, get finds the order (a
 * remembered "not found" must not hide it); after pay answered PAID, get answers PAID; after a failed pay, get answers
 * CREATED once its compensation has run — and a get that starts after the write was answered sees it, however many
 * readers there are. ch12-2 compensates inside the request, so its get after a failed pay answers CREATED at once;
 * ch12-3 hands the release to its reconciler and answers first, so for a few milliseconds the order is still PAYING
 * (the table says so, nothing is stale): that get may answer PAYING, but must answer CREATED within
 * {@link #COMPENSATION_BOUND}. The trap: a
 * cache that is filled by a read during a change and never invalidated answers the old order until its entry expires
 * (5 s in ch12-2), and no latency claim notices, because a stale answer is a fast one.
 *
 * <p>The suite holds on every checkpoint: ch12-1 has no cache to go stale, ch12-2 and ch12-3 invalidate on every
 * change. It is graded with chapter 12.2, where the cache arrives.
 */
final class ConsistencyClaims {

    /** How long after a write was answered a get may still answer what it replaced: not at all. */
    static final Duration STALE_BOUND = Duration.ZERO;
    /**
     * How long after a failed pay was answered its order may still be PAYING: the release is compensation, and ch12-3
     * runs it off the request path (its reconciler polls every 10 ms). Far below ch12-2's 5 s cache TTL, so a cached
     * PAYING that is never invalidated still fails.
     */
    static final Duration COMPENSATION_BOUND = Duration.ofSeconds(1);
    private static final long READ_PAUSE_NANOS = 100_000L;

    private ConsistencyClaims() {
    }

    static List<Claim> claims() {
        return List.of(
                Claim.builder("12.2-reads-own-writes", Suite.CONSISTENCY_12_2).section("12.2 读缓存").points(2).load(false)
                        .statement("a client reads its own writes: get after create finds the order, after a PAID pay answers PAID, after a failed pay answers CREATED once compensated")
                        .needs("reserve 8..12 ms (nominally 10), charge 25..40 ms (30), deadlines 1.6..2.4 s (2 s), the first charge declined at once; one order's"
                                + " pay declined, another's PAID, a get before and during each pay; every get after an answer shows it (stale bound 0 ms; after"
                                + " the declined pay PAYING only until CREATED, within 1 s); an id asked for before it was created is found once created")
                        .judge(ConsistencyClaims::readsOwnWrites).build(),
                Claim.builder("12.2-reads-own-writes-concurrent", Suite.CONSISTENCY_12_2).section("12.2 读缓存").points(2).load(false)
                        .statement("under concurrent readers, no get that starts after a pay answered PAID answers anything else")
                        .needs("32..48 orders (nominally 40), 4 readers getting them in a loop (a 100 µs pause between gets) while 4 payers pay them:"
                                + " every pay PAID, 0 stale reads (stale bound 0 ms)")
                        .judge(ConsistencyClaims::concurrentReaders).build());
    }

    static ClaimVerdict readsOwnWrites(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        // the provider's latency: long enough to read during it, short of ch12-3's per-call budget of a charge (80 ms)
        Duration charge = in.millis("charge", 25, 40);
        // at most 60% of ch12-3's per-call budget of a reserve (20 ms): slow enough to be read during, never a timeout
        Duration reserve = in.millis("reserve", 8, 12);
        Duration timeout = deadline(in);
        StubBehaviour payment = StubBehaviour.constant(charge).withErrors(callIndex -> callIndex == 0);
        List<String> wrong = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        // a decline comes back at once: the reserve (and the release after it) keep the declined pay PAYING long enough
        // for the read "during" it to land there, or a cache that keeps the PAYING it saw would never be caught
        try (Bench bench = Bench.of(checkpoint, in, StubBehaviour.constant(reserve), payment, ErrorInjection.NONE,
                StubBehaviour.constant(Duration.ZERO));
             var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            String id = bench.createBookOrder();
            expect(bench, id, "CREATED", 0, "get after create", wrong, seen);

            Future<Bench.Timed<OrderPort.OrderView>> declined = threads.submit(() -> Bench.timed(() -> bench.port.pay(request(timeout), id)));
            Thread.sleep(reserve.toMillis() / 2);
            seen.add("during the declined pay " + status(bench, id));
            Bench.Timed<OrderPort.OrderView> failed = declined.get(10, TimeUnit.SECONDS);
            seen.add("declined pay answered " + (failed.error() == null ? failed.value().status() : failed.error().kind()));
            if (failed.error() == null) {
                wrong.add("the declined pay answered " + failed.value().status());
            } else {
                expectCompensated(bench, id, wrong, seen);
            }

            // another order: a provider that keys its charges replays the first answer for the same order
            String other = bench.createBookOrder();
            expect(bench, other, "CREATED", 0, "get of a second order", wrong, seen);
            Future<Bench.Timed<OrderPort.OrderView>> paying = threads.submit(() -> Bench.timed(() -> bench.port.pay(request(timeout), other)));
            Thread.sleep(charge.toMillis() / 3);
            seen.add("during its pay " + status(bench, other));
            Bench.Timed<OrderPort.OrderView> paid = paying.get(10, TimeUnit.SECONDS);
            if (paid.error() != null || !paid.value().status().equals("PAID")) {
                wrong.add("the second order's pay answered " + (paid.error() == null ? paid.value().status() : paid.error().kind()));
            } else {
                expect(bench, other, "PAID", paid.value().version(), "get after its PAID pay", wrong, seen);
            }

            seen.add(notFoundThenCreated(bench, wrong));
        }
        return ClaimVerdict.of(wrong.isEmpty(), (wrong.isEmpty() ? "every read showed the write before it" : "stale: " + String.join("; ", wrong))
                + " (" + String.join(", ", seen) + ")");
    }

    /**
     * Asks for the id the next create will most likely take (the last two ids' number plus their step), then creates
     * it: where ids are not predictable, says so and checks nothing.
     */
    private static String notFoundThenCreated(Bench bench, List<String> wrong) {
        String a = bench.createBookOrder();
        String b = bench.createBookOrder();
        String next = nextId(a, b);
        if (next == null) {
            return "ids " + a + ", " + b + " do not count up: the remembered not-found was not tried";
        }
        String before = status(bench, next);
        String c = bench.createBookOrder();
        if (!c.equals(next)) {
            return "asked for " + next + " (" + before + ") but create answered " + c + ": the remembered not-found was not tried";
        }
        String after = status(bench, c);
        if (!after.startsWith("CREATED")) {
            wrong.add("get of " + c + " answered " + before + " before its create and " + after + " after it");
        }
        return "get of " + c + " before its create " + before + ", after " + after;
    }

    /** @return {@code b} with its trailing number advanced by b − a, zero-padded like it; null if they do not count up */
    static String nextId(String a, String b) {
        var m = java.util.regex.Pattern.compile("^(.*?)(\\d+)$");
        var ma = m.matcher(a);
        var mb = m.matcher(b);
        if (!ma.matches() || !mb.matches() || !ma.group(1).equals(mb.group(1)) || mb.group(2).length() > 18) {
            return null;
        }
        long step = Long.parseLong(mb.group(2)) - Long.parseLong(ma.group(2));
        if (step <= 0) {
            return null;
        }
        String digits = Long.toString(Long.parseLong(mb.group(2)) + step);
        String padded = "0".repeat(Math.max(0, mb.group(2).length() - digits.length())) + digits;
        return mb.group(1) + padded;
    }

    private static void expect(Bench bench, String id, String status, int atLeastVersion, String what, List<String> wrong, List<String> seen) {
        String got = status(bench, id);
        seen.add(what + " " + got);
        if (!got.startsWith(status + "@") || versionOf(got) < atLeastVersion) {
            wrong.add(what + " answered " + got + ", wanted " + status + (atLeastVersion > 0 ? " at version >= " + atLeastVersion : ""));
        }
    }

    /**
     * Gets {@code id} until it answers CREATED: PAYING is allowed in between (the release still pending), for at most
     * {@link #COMPENSATION_BOUND}; anything else, or PAYING past the bound, is wrong.
     */
    private static void expectCompensated(Bench bench, String id, List<String> wrong, List<String> seen) throws InterruptedException {
        long answeredAt = System.nanoTime();
        String first = status(bench, id);
        String got = first;
        int gets = 1;
        while (got.startsWith("PAYING@") && System.nanoTime() - answeredAt < COMPENSATION_BOUND.toNanos()) {
            Thread.sleep(1);
            got = status(bench, id);
            gets++;
        }
        long tookNanos = System.nanoTime() - answeredAt;
        seen.add(gets == 1 ? "get after the declined pay " + got
                : String.format(Locale.ROOT, "get after the declined pay %s, then %s after %.1f ms (%d gets)", first, got, tookNanos / 1e6, gets));
        if (!got.startsWith("CREATED@")) {
            wrong.add("get after the declined pay answered " + got + (got.startsWith("PAYING@")
                    ? " still " + COMPENSATION_BOUND.toMillis() + " ms after it" : "") + ", wanted CREATED");
        }
    }

    private static int versionOf(String statusAtVersion) {
        int at = statusAtVersion.indexOf('@');
        return at < 0 ? -1 : Integer.parseInt(statusAtVersion.substring(at + 1));
    }

    /** @return the deadline of every request of these claims: 1.6..2.4 s (nominally 2 s) */
    private static Duration deadline(ClaimInputs in) {
        return in.millis("deadline", 1_600, 2_400);
    }

    /** @return "STATUS@version" of a get, or the kind of its error */
    private static String status(Bench bench, String id) {
        try {
            OrderPort.OrderView v = bench.port.get(request(deadline(bench.inputs)), id);
            return v.status() + "@" + v.version();
        } catch (OrderPortException e) {
            return e.kind().name();
        }
    }

    static ClaimVerdict concurrentReaders(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        int orders = (int) in.between("orders", 32, 48);
        int readers = 4;
        int payers = 4;
        Duration timeout = deadline(in);
        try (Bench bench = Bench.book(checkpoint, in);
             var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < orders; i++) {
                ids.add(bench.createBookOrder());
            }
            Map<String, Long> paidAtNanos = new ConcurrentHashMap<>();
            ConcurrentLinkedQueue<String> notPaid = new ConcurrentLinkedQueue<>(); // what a pay that was not PAID answered
            ConcurrentLinkedQueue<long[]> staleReads = new ConcurrentLinkedQueue<>();
            AtomicBoolean reading = new AtomicBoolean(true);
            List<FutureTask<Long>> readersDone = new ArrayList<>();
            for (int r = 0; r < readers; r++) {
                int offset = r;
                // platform threads, each pausing 100 µs between gets: a reader spinning on a virtual thread would
                // keep the payers' virtual threads off the two carriers of a 2-core machine
                FutureTask<Long> reader = new FutureTask<>(() -> {
                    long reads = 0;
                    for (int i = offset; reading.get(); i++) {
                        String id = ids.get(i % orders);
                        long start = System.nanoTime();
                        String got = status(bench, id);
                        reads++;
                        Long paidAt = paidAtNanos.get(id);
                        if (paidAt != null && start > paidAt && !got.startsWith("PAID@")) {
                            staleReads.add(new long[] {start - paidAt});
                        }
                        LockSupport.parkNanos(READ_PAUSE_NANOS);
                    }
                    return reads;
                });
                Thread.ofPlatform().daemon(true).name("reader-" + r).start(reader);
                readersDone.add(reader);
            }
            Thread.sleep(20);
            List<Future<Integer>> payersDone = new ArrayList<>();
            for (int p = 0; p < payers; p++) {
                int offset = p;
                payersDone.add(threads.submit(() -> {
                    int paid = 0;
                    for (int i = offset; i < orders; i += payers) {
                        String id = ids.get(i);
                        Bench.Timed<OrderPort.OrderView> t = Bench.timed(() -> bench.port.pay(request(timeout), id));
                        if (t.error() == null && t.value().status().equals("PAID")) {
                            paidAtNanos.put(id, System.nanoTime());
                            paid++;
                        } else {
                            notPaid.add(t.error() == null ? "answered " + t.value().status()
                                    : t.error().getClass().getSimpleName() + ": " + String.valueOf(t.error().getMessage()));
                        }
                    }
                    return paid;
                }));
            }
            int paid = 0;
            long reads = 0;
            try {
                for (Future<Integer> f : payersDone) {
                    paid += f.get(30, TimeUnit.SECONDS);
                }
                Thread.sleep(50);
            } finally {
                reading.set(false); // whatever happened to the payers: a reader left spinning loads every later claim
            }
            for (FutureTask<Long> f : readersDone) {
                reads += f.get(30, TimeUnit.SECONDS);
            }
            long longestNanos = staleReads.stream().mapToLong(s -> s[0]).max().orElse(0);
            String measured = String.format(Locale.ROOT, "%d of %d pays answered PAID; %d gets by %d readers; %d stale read(s) after a PAID answer, the latest %.1f ms after it",
                    paid, orders, reads, readers, staleReads.size(), longestNanos / 1e6)
                    + (notPaid.isEmpty() ? "" : "; not PAID: " + notPaid.stream().limit(3)
                            .map(a -> a.length() > 120 ? a.substring(0, 120) + "…" : a).toList());
            return ClaimVerdict.of(paid == orders && staleReads.isEmpty(), measured);
        }
    }
}
