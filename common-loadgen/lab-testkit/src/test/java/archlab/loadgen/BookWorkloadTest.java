package archlab.loadgen;

import archlab.request.Deadline;
import archlab.clock.NanoClock;
import archlab.request.PoolExhaustedException;
import archlab.request.RequestContext;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BookWorkloadTest {

    /** Records every call; creates ids "o1", "o2", … */
    static final class FakeTarget implements OrderTarget {
        final AtomicInteger created = new AtomicInteger();
        final Queue<RequestContext> createContexts = new ConcurrentLinkedQueue<>();
        final Queue<String> got = new ConcurrentLinkedQueue<>();
        final Queue<String> paid = new ConcurrentLinkedQueue<>();

        @Override
        public String create(RequestContext ctx) {
            createContexts.add(ctx);
            return "o" + created.incrementAndGet();
        }

        @Override
        public void get(RequestContext ctx, String orderId) {
            got.add(orderId);
        }

        @Override
        public void pay(RequestContext ctx, String orderId) {
            paid.add(orderId);
        }
    }

    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /** The book's mix on unsigned 64-bit integers, done in arbitrary precision and reduced mod 2^64. */
    private static long referenceMix(long n) {
        BigInteger unsignedN = BigInteger.valueOf(n).mod(TWO_64);
        return unsignedN.multiply(new BigInteger("9e3779b97f4a7c15", 16))
                .add(new BigInteger("bf58476d1ce4e5b9", 16))
                .mod(TWO_64)
                .shiftRight(17)
                .longValueExact();
    }

    private static RequestContext ctx(long sequence) {
        return new RequestContext(sequence, 0, Deadline.NONE, NanoClock.SYSTEM, archlab.trace.Trace.OFF);
    }

    @Test
    @DisplayName("mix is (n·0x9e3779b97f4a7c15 + 0xbf58476d1ce4e5b9) >> 17 on unsigned 64 bits, as BigInteger computes it")
    void mixEqualsUnsignedReference() {
        for (long n : new long[] {0, 1, 2, 3, 7, 4_500, 4_507, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, -1}) {
            assertThat(BookWorkload.mix(n)).as("mix(%d)", n).isEqualTo(referenceMix(n));
        }
        // two values pinned, so a change to the reference itself would show too
        assertThat(BookWorkload.mix(1)).isEqualTo(51_436_001_119_767L);
        assertThat(BookWorkload.mix(4_500)).isEqualTo(126_718_648_996_633L);
    }

    @Test
    @DisplayName("over the book's sequences 1..4500 the mix is 40/35/25: exactly 1800 create, 1570 get, 1130 pay")
    void bookMixShares() throws Exception {
        BookWorkload w = BookWorkload.prepare(new FakeTarget(), 1);
        Map<String, Integer> counts = new TreeMap<>();
        for (long seq = 1; seq <= 4_500; seq++) {
            counts.merge(w.operationOf(seq), 1, Integer::sum);
        }
        // measured: create 1800 (40.0%), get 1570 (34.9%), pay 1130 (25.1%)
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(
                BookWorkload.CREATE, 1_800, BookWorkload.GET, 1_570, BookWorkload.PAY, 1_130));
        assertThat(counts.get(BookWorkload.CREATE) / 4_500.0).isCloseTo(0.40, within(0.01));
        assertThat(counts.get(BookWorkload.GET) / 4_500.0).isCloseTo(0.35, within(0.01));
        assertThat(counts.get(BookWorkload.PAY) / 4_500.0).isCloseTo(0.25, within(0.01));
    }

    @Test
    @DisplayName("operationOf is a pure function of the sequence: same answer on any workload, before and after requests ran")
    void operationOfIsPure() throws Exception {
        BookWorkload a = BookWorkload.prepare(new FakeTarget(), 10);
        BookWorkload b = BookWorkload.prepare(new FakeTarget(), 3_000);
        List<String> before = new ArrayList<>();
        for (long seq = 1; seq <= 200; seq++) {
            before.add(a.operationOf(seq));
        }
        for (long seq = 1; seq <= 10; seq++) {
            try {
                a.execute(seq, a.operationOf(seq), ctx(seq));
            } catch (PoolExhaustedException ignored) {
                // irrelevant here
            }
        }
        for (long seq = 1; seq <= 200; seq++) {
            assertThat(a.operationOf(seq)).isEqualTo(before.get((int) seq - 1)).isEqualTo(b.operationOf(seq));
        }
    }

    @Test
    @DisplayName("prepare creates poolSize orders outside any deadline or trace, and the pool holds them in creation order")
    void prepareCreatesThePool() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 5);
        assertThat(w.pool()).containsExactly("o1", "o2", "o3", "o4", "o5");
        assertThat(target.createContexts).hasSize(5).allSatisfy(c -> {
            assertThat(c.deadline()).isEqualTo(Deadline.NONE);
            assertThat(c.trace().isRecording()).isFalse();
        });
        assertThat(w.paysTaken()).isZero();
    }

    @Test
    @DisplayName("prepare with a pool smaller than 1 is refused and creates nothing")
    void prepareRefusesAnEmptyPool() {
        FakeTarget target = new FakeTarget();
        assertThatThrownBy(() -> BookWorkload.prepare(target, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poolSize");
        assertThatThrownBy(() -> BookWorkload.prepare(target, -3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poolSize");
        assertThat(target.created).hasValue(0);
    }

    @Test
    @DisplayName("pay takes the pool's orders in order, each exactly once")
    void payTakesPoolOrdersInOrder() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 4);
        for (int i = 0; i < 4; i++) {
            w.execute(100 + i, BookWorkload.PAY, ctx(100 + i));
        }
        assertThat(target.paid).containsExactly("o1", "o2", "o3", "o4");
        assertThat(w.paysTaken()).isEqualTo(4);
    }

    @Test
    @DisplayName("once the pool is paid, pays take the orders the run created, oldest first, each once (a retry the same one), then the pool is exhausted; pool() and paysTaken() count them")
    void paysPastThePoolTakeTheRunsOwnCreates() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 2); // o1, o2
        w.execute(1, BookWorkload.CREATE, ctx(1)); // o3
        w.execute(2, BookWorkload.CREATE, ctx(2)); // o4
        for (long seq = 10; seq < 14; seq++) {
            w.execute(seq, BookWorkload.PAY, ctx(seq));
        }
        w.execute(13, BookWorkload.PAY, ctx(13)); // a retry of the last pay: the same order again
        assertThat(target.paid).containsExactly("o1", "o2", "o3", "o4", "o4");
        assertThatThrownBy(() -> w.execute(14, BookWorkload.PAY, ctx(14))).isInstanceOf(PoolExhaustedException.class)
                .hasMessageContaining("every order the run created");
        assertThat(w.pool()).containsExactly("o1", "o2", "o3", "o4");
        assertThat(w.paysTaken()).isEqualTo(4);
        w.execute(3, BookWorkload.CREATE, ctx(3)); // o5: pays go on once creates made more
        w.execute(15, BookWorkload.PAY, ctx(15));
        assertThat(target.paid).endsWith("o5");
    }

    @Test
    @DisplayName("a via() copy shares what the run draws: the original's pool() and paysTaken() count the orders the copy created and paid")
    void viaSharesTheDraws() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 1); // o1
        FakeTarget other = new FakeTarget();
        BookWorkload copy = w.via(other);
        copy.execute(1, BookWorkload.PAY, ctx(1)); // o1, through the other port
        copy.execute(2, BookWorkload.CREATE, ctx(2)); // the other port's o1
        copy.execute(3, BookWorkload.PAY, ctx(3));
        assertThat(other.paid).containsExactly("o1", "o1");
        assertThat(w.paysTaken()).isEqualTo(2);
        assertThat(w.pool()).hasSize(2);
    }

    @Test
    @DisplayName("a caller's retry of a pay (the same sequence number) pays the same order again; the next request pays the next order")
    void aRetryPaysTheSameOrder() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 10);
        w.execute(5, BookWorkload.PAY, ctx(5));
        w.execute(5, BookWorkload.PAY, ctx(5));
        w.execute(6, BookWorkload.PAY, ctx(6));
        assertThat(w.paysTaken()).isEqualTo(2);
        assertThat(target.paid).containsExactly(w.pool().get(0), w.pool().get(0), w.pool().get(1));
    }

    @Test
    @DisplayName("pays from 16 threads at once still take every pool order exactly once")
    void concurrentPaysTakeEachOrderOnce() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 1_600);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger exhausted = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            long firstSequence = 1 + t * 1_000L;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                    for (int i = 0; i < 110; i++) { // 1,760 pays for 1,600 orders
                        try {
                            w.execute(firstSequence + i, BookWorkload.PAY, ctx(firstSequence + i));
                        } catch (PoolExhaustedException e) {
                            exhausted.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(target.paid).hasSize(1_600).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(w.pool());
        assertThat(exhausted).hasValue(160);
        assertThat(w.paysTaken()).isEqualTo(1_600);
    }

    @Test
    @DisplayName("a pay that finds the pool exhausted throws PoolExhaustedException and pays nothing")
    void exhaustedPoolThrows() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 2);
        w.execute(1, BookWorkload.PAY, ctx(1));
        w.execute(2, BookWorkload.PAY, ctx(2));

        assertThatThrownBy(() -> w.execute(3, BookWorkload.PAY, ctx(3)))
                .isInstanceOf(PoolExhaustedException.class).hasMessageContaining("2");
        assertThat(target.paid).hasSize(2);
        assertThat(w.paysTaken()).isEqualTo(2);
    }

    @Test
    @DisplayName("create goes to the target with the request's own context")
    void createUsesTheRequestContext() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 1);
        RequestContext ctx = RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofMillis(200));
        w.execute(9, BookWorkload.CREATE, ctx);
        assertThat(target.createContexts).hasSize(2).last().isSameAs(ctx);
    }

    @Test
    @DisplayName("get reads the pool order chosen by mix(sequence + 7) mod poolSize")
    void getReadsTheMixChosenPoolOrder() throws Exception {
        FakeTarget target = new FakeTarget();
        BookWorkload w = BookWorkload.prepare(target, 37);
        List<String> expected = new ArrayList<>();
        for (long seq = 1; seq <= 50; seq++) {
            w.execute(seq, BookWorkload.GET, ctx(seq));
            expected.add(w.pool().get((int) (referenceMix(seq + 7) % 37)));
        }
        assertThat(target.got).containsExactlyElementsOf(expected);
        assertThat(target.paid).isEmpty();
    }

    @Test
    @DisplayName("an unknown operation is refused")
    void unknownOperationIsRefused() throws Exception {
        BookWorkload w = BookWorkload.prepare(new FakeTarget(), 1);
        assertThatThrownBy(() -> w.execute(1, "refund", ctx(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refund");
    }
}
