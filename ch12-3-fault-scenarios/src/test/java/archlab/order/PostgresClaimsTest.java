package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.clock.NanoClock;
import archlab.db.LabDatabase;
import archlab.run.testing.StoreUnderTest;
import archlab.run.LabStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * ch12-3's claims in PostgreSQL: numbered per order, stamped with the claiming process's lease, and taken over by a live
 * process only when their claimer is dead. On a fresh schema of the lab's server; skipped, saying so, without one.
 */
class PostgresClaimsTest {

    private static final List<Item> ITEMS = List.of(new Item("sku-a", 1, 100));

    private LabDatabase database;

    @BeforeEach
    void freshSchema() {
        LabStore store = StoreUnderTest.postgres();
        database = LabDatabase.open(store.jdbcUrl().orElseThrow(), "claims", 4);
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

    @Test
    @DisplayName("a claim is numbered per order: a second claim of one order, after it was made CREATED again, is claim 2")
    void claimsAreNumberedPerOrder() {
        PostgresOrderTable table = table();
        Order created = table.insert("cust", ITEMS, 100);
        assertThat(table.claim(created.markPaying())).get().extracting(OrderTable.Claim::number).isEqualTo(1L);
        assertThat(table.claim(created.markPaying())).as("already PAYING").isEmpty();
        assertThat(table.update(created, OrderStatus.PAYING)).isTrue();
        assertThat(table.claim(created.markPaying())).get().extracting(OrderTable.Claim::number).isEqualTo(2L);
    }

    @Test
    @DisplayName("a live neighbour's PAYING orders are not orphans; once its lease is gone, one process takes each over, once")
    void orphansAreTheDeadsOnly() {
        PostgresOrderTable first = table();
        Order a = first.insert("cust", ITEMS, 100);
        first.claim(a.markPaying());
        PostgresOrderTable second = table();
        PostgresOrderTable third = table();
        assertThat(second.orphanedClaims()).as("its claimer is alive").isEmpty();

        first.close();
        List<OrderTable.Claim> taken = second.orphanedClaims();
        assertThat(taken).extracting(c -> c.order().id(), OrderTable.Claim::number)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(a.id(), 1L));
        assertThat(taken.get(0).order().status()).isEqualTo(OrderStatus.PAYING);
        assertThat(third.orphanedClaims()).as("now the second's, which is alive").isEmpty();
        assertThat(second.orphanedClaims()).as("its own claims are not orphans").isEmpty();
    }

    @Test
    @DisplayName("a write that needs a claim its process no longer holds is refused by the database: once a peer adopted the"
            + " order, the old claimer cannot mark it PAID or CREATED, and the adopter can")
    void anAdoptedClaimFencesItsOldClaimer() {
        PostgresOrderTable first = table();
        Order a = first.insert("cust", ITEMS, 100);
        Order paying = first.claim(a.markPaying()).orElseThrow().order();
        PostgresOrderTable second = table();
        first.close(); // its lease is gone (as when its session drops), its connections still work
        assertThat(second.orphanedClaims()).hasSize(1);

        assertThat(first.commitPaid(paying.markPaid(), archlab.downstream.Notification.orderPaid(a.id())))
                .as("the old claimer's PAID").isFalse();
        assertThat(first.update(paying.markCreated(), OrderStatus.PAYING)).as("the old claimer's release").isFalse();
        assertThat(second.current(a.id()).status()).isEqualTo(OrderStatus.PAYING);
        assertThat(second.commitPaid(paying.markPaid(), archlab.downstream.Notification.orderPaid(a.id()))).as("the adopter's").isTrue();
    }

    @Test
    @DisplayName("a claim keeps when its pay's deadline falls, on the database's clock: the adopter of an orphan learns how long"
            + " until then (zero once passed, or for a pay without one)")
    void anOrphanCarriesItsPaysDeadline() {
        PostgresOrderTable first = table();
        Order withDeadline = first.insert("cust", ITEMS, 100);
        Order without = first.insert("cust", ITEMS, 100);
        first.claim(withDeadline.markPaying(), java.time.Duration.ofSeconds(20));
        first.claim(without.markPaying(), null);
        PostgresOrderTable second = table();
        first.close();

        java.util.Map<String, java.time.Duration> until = new java.util.HashMap<>();
        second.orphanedClaims().forEach(c -> until.put(c.order().id(), c.untilDeadline()));
        assertThat(until.get(withDeadline.id())).isBetween(java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(20));
        assertThat(until.get(without.id())).isEqualTo(java.time.Duration.ZERO);
    }

    @Test
    @DisplayName("a process whose lease session the server ended takes no new pay: its next claim is refused, saying why, and"
            + " the order stays CREATED")
    void aProcessThatLostItsLeaseTakesNoNewWork() throws Exception {
        PostgresOrderTable lost = table();
        Order a = lost.insert("cust", ITEMS, 100);
        try (java.sql.Connection admin = database.dataSource().getConnection();
             java.sql.PreparedStatement end = admin.prepareStatement("SELECT pg_terminate_backend(l.pid) FROM pg_locks l"
                     + " WHERE l.locktype = 'advisory' AND ((l.classid::bigint << 32) | l.objid::bigint) = ?")) {
            end.setLong(1, lost.lease().key());
            end.executeQuery().close();
        }
        long until = System.nanoTime() + ProcessLease.LOOK_EVERY.multipliedBy(5).toNanos();
        while (lost.lease().stillHeld() && System.nanoTime() - until < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L); // the lease is looked at once a second
        }
        assertThatThrownBy(() -> lost.claim(a.markPaying())).isInstanceOf(DatabaseException.class)
                .hasMessageContaining("lease on the database is gone");
        assertThat(table().current(a.id()).status()).isEqualTo(OrderStatus.CREATED);
    }
}
