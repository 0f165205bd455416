package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import archlab.db.LabDatabase;
import archlab.db.PoolFigures;
import archlab.loadgen.RunResult;
import archlab.run.testing.StoreUnderTest;
import archlab.profile.ProfileReport;
import archlab.run.LabRun;
import archlab.run.LabStore;
import archlab.report.MoneyEvidence;
import archlab.report.RunReport;
import archlab.timeline.Interval;
import archlab.trace.SegmentTable.SegmentRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The chapter's baseline: the book's load (1,500 req/s for 3 s, timeout 200 ms, downstream 2/4/2 ms,
 * 4,000 pre-created orders) against the locked service, with the three profiles. Run it with
 * {@code mvn -pl ch12-1-baseline test -Dbaseline}; the report lands in {@code target/reports/baseline.txt}
 * (+ .json, + .jfr). Each assertion states one claim of the chapter in a form that holds on any machine.
 *
 * <p>With {@code -Dlab.store=postgres} the same load runs against the PostgreSQL table ({@link PostgresOrderTable}: the
 * lock a row lock, each waiter holding a pooled connection); the claims about the lock hold as they are, the report
 * gains the pool's lines, and one more claim is judged: the pool runs dry. Without a server every test is skipped,
 * saying how to start one.
 */
@EnabledIfSystemProperty(named = "baseline", matches = ".*", disabledReason = "a 3 s load run: mvn test -Dbaseline")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BaselineOpenLoopTest {

    private LabRun.Reports outcome;
    private BookLab lab;
    private LabStore store;

    @BeforeAll
    void runTheBooksLoad() {
        if (StoreUnderTest.chosenIsUsable()) {
            outcome = LabRun.named("ch12-1-baseline", "baseline").withOverrides().run(() -> lab = new BookLab());
        }
    }

    @BeforeEach
    void storeIsUsable() {
        store = StoreUnderTest.chosenAndUsable();
    }

    @Test
    @DisplayName("the runner offers exactly rate × duration requests (4,500 for the book's load) and starts them all")
    void offeredEqualsRateTimesDuration() {
        RunResult run = outcome.run();
        assertThat(run.offered()).isEqualTo(run.spec().plannedRequests());
        assertThat(run.started()).isEqualTo(run.offered());
        assertThat(run.notStarted()).as("threads that could not be created").isZero();
        assertThat(run.unfinished()).as("requests still running when the runner gave up waiting").isZero();
    }

    @Test
    @DisplayName("the report has a time axis: a hiccup line with the machine's p99 beside the send lag, a timeline line, and the interval log baseline.hlog beside the report")
    void reportHasATimeAxis() {
        assertThat(outcome.report().text()).containsPattern("(?m)^hiccup p50=\\d+us p99=\\d+us max=\\d+us ")
                .containsPattern("(?m)^timeline interval=\\d+ms run_intervals=\\d+ ");
        assertThat(outcome.run().hiccups().samples()).as("the probe sampled the machine during the run").isPositive();
        assertThat(outcome.run().timeline().phase(Interval.RUN)).isNotEmpty();
        assertThat(outcome.textFile().resolveSibling(outcome.textFile().getFileName().toString().replace(".txt", ".hlog"))).isRegularFile();
    }

    @Test
    @DisplayName("PAID orders ≤ wall / (sum of downstream latencies) + 1: the lock lets one pay through at a time")
    void paysAreSerialisedByTheLock() {
        MoneyEvidence money = outcome.report().money();
        long bound = outcome.run().wallNanos() / lab.payFloorNanos() + 1;
        assertThat(money.paidOrders()).isLessThanOrEqualTo(bound);
    }

    @Test
    @DisplayName("requests time out: the queue behind the lock grows past the 200 ms timeout")
    void timeoutsHappen() {
        assertThat(outcome.run().timedOut()).isPositive();
    }

    @Test
    @DisplayName("the order table's lock carries at least 80% of the lock wait JFR recorded")
    void theOrderTableLockDominatesLockWait() {
        ProfileReport profile = outcome.profile();
        assumeThat(store.postgres()).as("the lock is in the JVM: with lab.store=postgres it is PostgreSQL's row lock, and JFR"
                + " sees a thread reading its socket, not a lock").isFalse();
        assumeThat(profile).as("profiling is on (-Dlab.profile=true)").isNotNull();
        assumeThat(profile.lockWaitNanos())
                .as("JFR recorded lock waits (platform threads; see the report's notes)").isPositive();
        double share = (double) profile.lockWaitNanosWhere("archlab.order.OrderService.") / profile.lockWaitNanos();
        assertThat(share).isGreaterThanOrEqualTo(0.80);
    }

    @Test
    @DisplayName("pay is the lock's top holder: the holder side the JFR wait table cannot show")
    void payHoldsTheLockLongest() {
        RunReport report = outcome.report();
        assumeThat(outcome.overTheWire()).as("in process only: over HTTP a request's segments are the server's,"
                + " and the runner's trace does not cross the wire").isFalse();
        assumeThat(store.postgres()).as("in memory only: on PostgreSQL every unit of work holds the row lock through its"
                + " commit's flush, the backlog makes most pays reach their first downstream call after their deadline,"
                + " and the holders are the commits (the report's lock holders show which)").isFalse();
        assumeThat(report.run().tracedRequests()).as("segment tracing is on (-Dlab.trace=1)").isPositive();
        assertThat(report.topHolder()).isEqualTo("pay");
    }

    @Test
    @DisplayName("where the time went: waiting for the lock is the largest segment of create, get and pay (on PostgreSQL: waiting for a pooled connection, which the lock's waiters hold)")
    void lockWaitDominatesEveryOperation() {
        RunResult run = outcome.run();
        assumeThat(outcome.overTheWire()).as("in process only: over HTTP a request's segments are the server's,"
                + " and the runner's trace does not cross the wire").isFalse();
        assumeThat(run.tracedRequests()).as("segment tracing is on (-Dlab.trace=1)").isPositive();
        String waiting = store.postgres() ? PostgresOrderTable.CONNECTION_WAIT : OrderTable.LOCK_WAIT;
        for (String op : java.util.List.of("create", "get", "pay")) {
            SegmentRow top = run.segments().stream().filter(r -> r.operation().equals(op))
                    .max(java.util.Comparator.comparingDouble(SegmentRow::sharePercent)).orElseThrow();
            assertThat(top.segment()).as("largest segment of " + op).isEqualTo(waiting);
        }
    }

    @Test
    @DisplayName("on PostgreSQL the pool runs dry: every connection is in use, threads wait for one, and the report carries the connection wait's p50 and p99")
    void thePoolRunsDry() {
        assumeThat(store.postgres()).as("the orders are in PostgreSQL (-Dlab.store=postgres)").isTrue();
        PoolFigures pool = lab.database.figures();
        assertThat(pool.activeMax()).as("connections in use at most").isEqualTo(store.poolSize());
        assertThat(pool.waitingMax()).as("threads waiting for a connection at most").isPositive();
        assertThat(outcome.report().text()).containsPattern("(?m)^" + LabDatabase.POOL_LINE + "=size=" + store.poolSize()
                + " connection_wait p50=\\d+\\.\\d{3}ms p99=\\d+\\.\\d{3}ms ")
                .containsPattern("(?m)^" + LabDatabase.POOL_TIMELINE_LINE + "=interval=\\d+ms ");
    }

    @Test
    @DisplayName("orders are charged but never marked PAID, and the ledger's count matches the table's")
    void chargedButNotPaid() {
        MoneyEvidence money = outcome.report().money();
        assertThat(money.chargedButNotPaid()).isEqualTo(money.distinctOrdersCharged() - money.paidOrders());
        assumeThat(store.postgres()).as("in memory only: on PostgreSQL the queue forms in the pool, before the lock, so"
                + " nearly every pay reaches its first downstream call past its deadline and charges nothing; the few"
                + " charges left make charged-but-not-PAID a matter of chance (the report's money line counts them)").isFalse();
        assertThat(money.chargedButNotPaid()).isPositive();
    }
}
