package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.clock.NanoClock;
import archlab.db.LabDatabase;
import archlab.downstream.StubBehaviour;
import archlab.downstream.Downstream;
import archlab.downstream.Notification;
import archlab.downstream.NotifierStub;
import archlab.run.testing.StoreUnderTest;
import archlab.request.RequestContext;
import archlab.run.LabStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The orders and the outbox in PostgreSQL ({@link PostgresOrderTable}, {@link PostgresOutbox}), each test on a fresh
 * schema of the lab's server ({@code bash .servers/postgres.sh start}, or {@code -Dlab.jdbc.url}); skipped, saying so,
 * without one. What only a database gives the outbox: the PAID row and its notification committed together, two relays
 * that never claim one row twice, and rows a new process finds and delivers.
 */
class PostgresStoreTest {

    private static final List<Item> ITEMS = List.of(new Item("sku-a", 1, 100));
    private static final OutboxRelay.Settings QUICK = new OutboxRelay.Settings(Duration.ofMillis(1), Duration.ofSeconds(1),
            Duration.ofMinutes(1), Duration.ofMillis(1), Duration.ofMillis(10), 16);

    private LabDatabase database;

    @BeforeEach
    void freshSchema() {
        LabStore store = StoreUnderTest.postgres();
        database = LabDatabase.open(store.jdbcUrl().orElseThrow(), "store", 4);
    }

    @AfterEach
    void dropTheSchema() {
        if (database != null) { // null: skipped for want of a server
            database.close();
        }
    }

    private PostgresOrderTable table() {
        return new PostgresOrderTable(database.dataSource(), NanoClock.SYSTEM);
    }

    private static Order paying(OrderTable table) {
        Order created = table.insert("cust", ITEMS, 100);
        Order paying = created.markPaying();
        assertThat(table.update(paying, OrderStatus.CREATED)).isTrue();
        return paying;
    }

    @Test
    @DisplayName("orders are numbered as in memory, read back whole, and a claim changes a row only from the status it expects")
    void insertReadAndConditionalUpdate() {
        PostgresOrderTable table = table();
        Order first = table.insert("cust", ITEMS, 100);
        assertThat(first.id()).isEqualTo("ord-000001");
        assertThat(table.read(RequestContext.background(), first.id())).isEqualTo(first);
        assertThat(table.current("ord-999999")).isNull();

        assertThat(table.update(first.markPaying(), OrderStatus.CREATED)).isTrue();
        assertThat(table.update(first.markPaying(), OrderStatus.CREATED)).as("a second claim of one order").isFalse();
        assertThat(table.current(first.id()).status()).isEqualTo(OrderStatus.PAYING);
    }

    @Test
    @DisplayName("a relay on the PostgreSQL outbox polls it every 10 ms at most often, not every 1 ms as its settings ask")
    void theRelayPollsTheTableAtTheFloor() {
        Outbox outbox = table().outbox();
        assertThat(outbox.pollFloor()).isEqualTo(Duration.ofMillis(10));
        assertThat(new OutboxRelay(outbox, new NotifierStub(StubBehaviour.INSTANT), NanoClock.SYSTEM, Runnable::run,
                OutboxRelay.Settings.DEFAULT).pollInterval()).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    @DisplayName("an order and its items are stored together: three lines read back whole and in order; a line the table refuses stores neither the order nor any line")
    void anOrderAndItsItemsTogether() throws Exception {
        PostgresOrderTable table = table();
        List<Item> three = List.of(new Item("sku-c", 3, 300), new Item("sku-a", 1, 100), new Item("sku-b", 2, 200));
        Order order = table.insert("cust", three, 1400);
        assertThat(table.current(order.id()).items()).containsExactlyElementsOf(three);

        List<Item> refused = List.of(new Item("sku-a", 1, 100), new Item("", 1, 100)); // the table's CHECK (sku <> '')
        assertThatThrownBy(() -> table.insert("cust", refused, 200)).isInstanceOf(DatabaseException.class);
        try (java.sql.Connection c = database.dataSource().getConnection(); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet r = s.executeQuery("SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM order_items)")) {
            r.next();
            assertThat(r.getLong(1)).as("orders").isEqualTo(1);
            assertThat(r.getLong(2)).as("order lines").isEqualTo(3);
        }
    }

    @Test
    @DisplayName("commitPaid commits the PAID row and its outbox row together; refused or failing, it leaves neither")
    void paidAndItsNotificationTogether() {
        PostgresOrderTable table = table();
        Order paying = paying(table);
        Order paid = paying.markPaid();
        assertThat(table.commitPaid(paid, Notification.orderPaid(paid.id()))).isTrue();
        assertThat(table.current(paid.id())).extracting(Order::status, Order::version).containsExactly(OrderStatus.PAID, 1);
        assertThat(table.outbox().entry("paid:" + paid.id())).get().extracting(Outbox.Entry::state)
                .isEqualTo(Outbox.State.PENDING);

        Order created = table.insert("cust", ITEMS, 100);
        assertThat(table.commitPaid(created.markPaying().markPaid(), Notification.orderPaid(created.id())))
                .as("an order that is not PAYING").isFalse();
        assertThat(table.outbox().entry("paid:" + created.id())).isEmpty();

        Order second = paying(table);
        assertThatThrownBy(() -> table.commitPaid(second.markPaid(), Notification.orderPaid(paid.id())))
                .as("a message id already in the outbox").isInstanceOf(IllegalStateException.class);
        assertThat(table.current(second.id()).status()).as("rolled back with it").isEqualTo(OrderStatus.PAYING);
        assertThat(table.outbox().depth()).isEqualTo(1);
    }

    @Test
    @DisplayName("two relays draining one outbox at once (FOR UPDATE SKIP LOCKED) deliver every notification exactly once")
    void twoRelaysNeverClaimOneRowTwice() throws Exception {
        PostgresOrderTable table = table();
        int notifications = 200;
        for (int i = 0; i < notifications; i++) {
            Order p = paying(table);
            table.commitPaid(p.markPaid(), Notification.orderPaid(p.id()));
        }
        NotifierStub notifier = Downstream.instant().notifier();
        var pool = Executors.newFixedThreadPool(2);
        try {
            OutboxRelay a = new OutboxRelay(table.outbox(), notifier, NanoClock.SYSTEM, Runnable::run, QUICK);
            OutboxRelay b = new OutboxRelay(new PostgresOutbox(database.dataSource(), NanoClock.SYSTEM, table.lease()),
                    notifier, NanoClock.SYSTEM, Runnable::run, QUICK); // a second relay of the same process
            CompletableFuture<Integer> byA = CompletableFuture.supplyAsync(() -> drain(a), pool);
            CompletableFuture<Integer> byB = CompletableFuture.supplyAsync(() -> drain(b), pool);
            int claimed = byA.get() + byB.get();

            assertThat(claimed).isEqualTo(notifications);
            assertThat(notifier.distinctMessages()).isEqualTo(notifications);
            assertThat(notifier.redeliveries()).isZero();
            assertThat(table.outbox().isDrained()).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    private static int drain(OutboxRelay relay) {
        int claimed = 0;
        for (int idle = 0; idle < 3; ) {
            int n = relay.deliverDue().claimed();
            claimed += n;
            idle = n == 0 ? idle + 1 : 0;
        }
        return claimed;
    }

    @Test
    @DisplayName("what a dead process left — rows pending and rows in flight — a live one's relay delivers, in flight ones again by message id")
    void aNewProcessDeliversWhatTheDeadOneLeft() {
        PostgresOrderTable dead = table();
        for (int i = 0; i < 4; i++) {
            Order p = paying(dead);
            dead.commitPaid(p.markPaid(), Notification.orderPaid(p.id()));
        }
        NotifierStub notifier = Downstream.instant().notifier();
        List<Outbox.Entry> claimedByTheDead = dead.outbox().claimDue(2);
        claimedByTheDead.forEach(e -> notifier.notify(RequestContext.background(), e.notification()));
        dead.close(); // then it died: its lease is gone

        PostgresOrderTable next = table(); // another process: its own lease, its own clock
        OutboxRelay relay = new OutboxRelay(next.outbox(), notifier, NanoClock.SYSTEM, Runnable::run, QUICK);
        assertThat(next.outbox().recoverInFlight()).isEqualTo(2);
        drain(relay);

        assertThat(next.outbox().isDrained()).isTrue();
        assertThat(notifier.distinctMessages()).isEqualTo(4);
        assertThat(notifier.redeliveries()).as("the two the dead process had sent").isEqualTo(2);
        assertThat(next.outbox().timeToNotify().count()).as("adopted rows have no time to notify of this clock").isZero();
    }

    @Test
    @DisplayName("a running relay takes over what a neighbour left when it died — rows pending and rows in flight — with no restart and no recovery pass: every notification delivered, none left in flight")
    void aRunningRelayTakesOverADeadNeighboursRows() {
        PostgresOrderTable survivor = table();
        NotifierStub notifier = Downstream.instant().notifier();
        OutboxRelay relay = new OutboxRelay(survivor.outbox(), notifier, NanoClock.SYSTEM, Runnable::run, QUICK);
        assertThat(relay.deliverDue().claimed()).as("running, nothing to do yet").isZero();

        PostgresOrderTable dead = table();
        for (int i = 0; i < 4; i++) {
            Order p = paying(dead);
            dead.commitPaid(p.markPaid(), Notification.orderPaid(p.id()));
        }
        assertThat(dead.outbox().claimDue(2)).hasSize(2); // two in flight, two pending
        assertThat(relay.deliverDue().claimed()).as("a live neighbour's rows are left alone").isZero();
        dead.close(); // it dies: its lease is gone

        drain(relay);
        assertThat(notifier.distinctMessages()).isEqualTo(4);
        assertThat(survivor.outbox().isDrained()).as("nothing pending or in flight").isTrue();
        assertThat(survivor.outbox().entries()).as("no row open: none pending, in flight or parked").isEmpty();
    }

    @Test
    @DisplayName("a live neighbour's outbox rows are its own: another process's relay neither recovers nor claims them until its lease is gone")
    void aLiveNeighboursRowsAreLeftAlone() {
        PostgresOrderTable alive = table();
        Order p = paying(alive);
        alive.commitPaid(p.markPaid(), Notification.orderPaid(p.id()));
        Order q = paying(alive);
        alive.commitPaid(q.markPaid(), Notification.orderPaid(q.id()));
        assertThat(alive.outbox().claimDue(1)).hasSize(1); // one in flight, one pending

        PostgresOrderTable neighbour = table();
        assertThat(neighbour.outbox().recoverInFlight()).isZero();
        assertThat(neighbour.outbox().claimDue(10)).isEmpty();

        alive.close();
        assertThat(neighbour.outbox().recoverInFlight()).isEqualTo(1);
        assertThat(neighbour.outbox().claimDue(10)).hasSize(2);
    }

    @Test
    @DisplayName("a row left IN_FLIGHT by a live relay whose mark failed is claimed again after STUCK_AFTER, not before")
    void aStuckRowIsClaimedAgain() {
        archlab.loadgen.testing.FakeClock clock = new archlab.loadgen.testing.FakeClock();
        PostgresOrderTable table = new PostgresOrderTable(database.dataSource(), clock);
        Order p = paying(table);
        table.commitPaid(p.markPaid(), Notification.orderPaid(p.id()));
        assertThat(table.outbox().claimDue(10)).hasSize(1); // delivered, say, and then its mark failed

        clock.advance(PostgresOutbox.STUCK_AFTER.minusMillis(1));
        assertThat(table.outbox().claimDue(10)).as("still within its attempt's time").isEmpty();
        clock.advance(java.time.Duration.ofMillis(1));
        assertThat(table.outbox().claimDue(10)).extracting(Outbox.Entry::attempts).containsExactly(2);
    }
}
