package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import archlab.loadgen.testing.FakeClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The trap: a look at the lease made under a lock every claim takes — once a second, every claim of the process
 * queues behind one round trip on the lease's connection (and behind up to 2 s when that session stalls). The
 * session is a mock here; {@code PostgresClaimsTest} ends a real one from the server.
 */
class ProcessLeaseTest {

    private final FakeClock clock = new FakeClock();
    private final DataSource dataSource = mock(DataSource.class);
    private final Connection leaseConnection = mock(Connection.class);

    private ProcessLease taken() throws Exception {
        PreparedStatement lock = mock(PreparedStatement.class);
        when(lock.executeQuery()).thenReturn(mock(ResultSet.class));
        when(leaseConnection.prepareStatement(anyString())).thenReturn(lock);
        when(dataSource.getConnection()).thenReturn(leaseConnection);
        return ProcessLease.take(dataSource, clock);
    }

    @Test
    @DisplayName("no look before a second has passed: the lease's connection is not asked, the answer is the last look's")
    void noLookBeforeItsTime() throws Exception {
        ProcessLease lease = taken();

        clock.advance(ProcessLease.LOOK_EVERY.minusMillis(1));

        assertThat(lease.stillHeld()).isTrue();
        verify(leaseConnection, never()).isValid(anyInt());
    }

    @Test
    @DisplayName("while one caller's look waits for a slow session, the others are answered at once with the last look, and only one look is made")
    void aSlowLookHoldsNoOtherCaller() throws Exception {
        ProcessLease lease = taken();
        CountDownLatch looking = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        when(leaseConnection.isValid(anyInt())).thenAnswer(call -> {
            looking.countDown();
            return answer.await(10, TimeUnit.SECONDS);
        });
        clock.advance(ProcessLease.LOOK_EVERY);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> looker = threads.submit(lease::stillHeld);
            assertThat(looking.await(5, TimeUnit.SECONDS)).as("the first caller looks").isTrue();

            Future<Boolean> other = threads.submit(lease::stillHeld);

            assertThat(other.get(2, TimeUnit.SECONDS)).as("answered at once, with the last look (held)").isTrue();
            assertThat(looker.isDone()).as("the look is still waiting for the session").isFalse();
            answer.countDown();
            assertThat(looker.get(5, TimeUnit.SECONDS)).isTrue();
            verify(leaseConnection, org.mockito.Mockito.times(1)).isValid(anyInt());
        } finally {
            answer.countDown();
            threads.shutdownNow();
        }
    }

    @Test
    @DisplayName("a session that does not answer and whose lock no other connection sees granted is a lease gone, and it stays gone")
    void aLeaseFoundGoneStaysGone() throws Exception {
        ProcessLease lease = taken();
        when(leaseConnection.isValid(anyInt())).thenReturn(false);
        Connection other = mock(Connection.class);
        PreparedStatement alive = mock(PreparedStatement.class);
        ResultSet none = mock(ResultSet.class);
        when(none.next()).thenReturn(true);
        when(none.getBoolean(1)).thenReturn(false);
        when(alive.executeQuery()).thenReturn(none);
        when(other.prepareStatement(anyString())).thenReturn(alive);
        when(dataSource.getConnection()).thenReturn(other);
        clock.advance(ProcessLease.LOOK_EVERY);

        assertThat(lease.stillHeld()).isFalse();
        when(leaseConnection.isValid(anyInt())).thenReturn(true);
        clock.advance(ProcessLease.LOOK_EVERY);
        assertThat(CompletableFuture.supplyAsync(lease::stillHeld).get(5, TimeUnit.SECONDS)).isFalse();
    }
}
