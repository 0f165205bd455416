package archlab.downstream;

import java.time.Duration;
import java.util.Locale;

/**
 * A caller gave up waiting for one of a {@link ConnectionPool}'s connections: nothing was sent, the downstream never
 * saw the call ({@link #passedOnArrival()} is {@code true}). The message says how long it waited and why it stopped,
 * e.g. {@code "payments pool: no connection after 30000.2ms (4 connections, the pool's own 30000 ms timeout); nothing sent"}.
 */
public final class ConnectionWaitTimeoutException extends DownstreamTimeoutException {

    ConnectionWaitTimeoutException(String pool, Duration waited, ConnectionPool.PoolSettings settings) {
        super(pool, -1, true, String.format(Locale.ROOT, "%s pool: no connection after %.1fms (%d connections, the pool's own %d ms timeout); nothing sent",
                pool, waited.toNanos() / 1e6, settings.maxConnections(), settings.acquisitionTimeout().toMillis()));
    }
}
