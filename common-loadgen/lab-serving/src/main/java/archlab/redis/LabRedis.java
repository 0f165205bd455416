package archlab.redis;

import archlab.text.LabNamespace;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One fixture's Redis ({@code -Dlab.cache=redis}): a Lettuce connection to the lab's server and a key prefix of its own,
 * {@code lab:<label>:<hex>:}, so that no two runs — nor two test classes — ever read each other's entries.
 * {@link #close()} deletes the prefix's keys and shuts the client down. A fleet's instances share one prefix: the
 * runner {@link #open}s it, each instance {@link #attach}es to it, and only the runner's close deletes its keys.
 *
 * <p>Every command on {@link #commands()} gives up after {@link #timeout()} (Lettuce's command timeout,
 * {@code RedisCommandTimeoutException}): a cache call has a budget of its own, small beside the request's, so a Redis that
 * stalls costs a request that much and no more.
 *
 * <p>Thread-safety: the connection is Lettuce's, safe to share between threads (commands are pipelined on one socket).
 */
public final class LabRedis implements AutoCloseable {

    /**
     * How long a subscription may take to be made ({@link #subscribe}): once, while a service starts, when a cold JVM's
     * first commands take far longer than a warm one's; not a request's budget.
     */
    static final Duration SUBSCRIBE_TIMEOUT = Duration.ofSeconds(5);

    /** The command timeout unless told otherwise: about a hundred loopback round trips. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);

    private final String url;
    private final String prefix;
    private final Duration timeout;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private final boolean ownsKeys;
    /** Connections opened beside the main one (pub/sub, other codecs): closed with it. */
    private final List<AutoCloseable> others = new CopyOnWriteArrayList<>();

    /** A fixture's key prefix, {@code lab:<label>:<hex>:}; one handed to {@link #attach} must be one {@link #open} made. */
    private static final LabNamespace.Spelling PREFIX = new LabNamespace.Spelling(":", Integer.MAX_VALUE, ":",
            Pattern.compile("lab:([a-z0-9_]+:)?[0-9a-f]{8}:"), "not a lab prefix (lab:<label>:<8 hex>:): '%s'");

    private LabRedis(String url, LabNamespace prefix, Duration timeout, RedisClient client,
                     StatefulRedisConnection<String, String> connection) {
        this.ownsKeys = prefix.owned();
        this.url = url;
        this.prefix = prefix.name();
        this.timeout = timeout;
        this.client = client;
        this.connection = connection;
    }

    /**
     * Connects to {@code url} with a fresh key prefix.
     *
     * @param url     e.g. {@code redis://127.0.0.1:6379}
     * @param label   a few letters naming the fixture, kept in the prefix
     * @param timeout each command's budget; positive
     * @throws IllegalStateException when the server cannot be reached (nothing is left open)
     */
    public static LabRedis open(String url, String label, Duration timeout) {
        return connect(url, LabNamespace.open(label, PREFIX), timeout);
    }

    /**
     * Connects to {@code url} with the prefix another fixture {@link #open}ed (one instance of a fleet): its
     * {@link #close()} leaves the keys, which are the opener's to delete.
     *
     * @param prefix a prefix {@link #prefix()} returned, {@code lab:<label>:<hex>:}
     * @throws IllegalArgumentException when {@code prefix} is not one
     * @throws IllegalStateException    when the server cannot be reached (nothing is left open)
     */
    public static LabRedis attach(String url, String prefix, Duration timeout) {
        return connect(url, LabNamespace.attach(prefix, PREFIX), timeout);
    }

    private static LabRedis connect(String url, LabNamespace prefix, Duration timeout) {
        Objects.requireNonNull(url, "url");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        RedisClient client = RedisClient.create(RedisURI.create(url));
        try {
            StatefulRedisConnection<String, String> connection = client.connect();
            connection.setTimeout(timeout);
            return new LabRedis(url, prefix, timeout, client, connection);
        } catch (RuntimeException e) {
            shutdown(client);
            throw new IllegalStateException("could not connect to Redis at " + url + ": " + e.getMessage(), e);
        }
    }

    /** @return why {@code url} cannot be used now (the client's message), or empty when a PING was answered */
    public static Optional<String> unreachable(String url) {
        RedisClient client;
        try {
            client = RedisClient.create(RedisURI.create(url));
        } catch (RuntimeException e) {
            return Optional.of(e.getMessage());
        }
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            c.setTimeout(Duration.ofSeconds(2));
            c.sync().ping();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(e.getMessage());
        } finally {
            shutdown(client);
        }
    }

    /** @return what a service's second-level cache may do with this fixture's keys, and nothing more */
    public GenerationalCache generationalCache() {
        return new GenerationalCache(connection.sync(), prefix, timeout, url, this::subscribe);
    }

    /**
     * Another connection to the same server, with {@code codec} and the same command timeout (a library's own, e.g.
     * Bucket4j's proxy manager, which wants {@code byte[]} values); closed with this fixture.
     */
    public <K, V> StatefulRedisConnection<K, V> connection(RedisCodec<K, V> codec) {
        StatefulRedisConnection<K, V> c = client.connect(codec);
        c.setTimeout(timeout);
        others.add(c::close);
        return c;
    }

    /**
     * Subscribes {@code listener} to {@code channel} on a pub/sub connection of its own; closing it unsubscribes. The
     * messages are handed, in order, to a daemon thread of the subscription's own: a listener that blocks (a cache's
     * invalidation waits for a load of the same key, which may wait for Redis) never holds Lettuce's event loop.
     */
    AutoCloseable subscribe(String channel, java.util.function.Consumer<String> listener) {
        java.util.concurrent.ExecutorService handler = java.util.concurrent.Executors.newSingleThreadExecutor(
                Thread.ofPlatform().daemon().name("redis-sub-" + channel).factory());
        StatefulRedisPubSubConnection<String, String> c = null;
        try {
            c = client.connectPubSub();
            c.setTimeout(SUBSCRIBE_TIMEOUT); // made once, at a start: seconds, not a request's budget
            c.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
                @Override
                public void message(String ch, String message) {
                    if (channel.equals(ch)) {
                        handler.execute(() -> listener.accept(message));
                    }
                }
            });
            c.sync().subscribe(channel);
        } catch (RuntimeException e) {
            if (c != null) {
                c.close();
            }
            handler.shutdownNow();
            throw e;
        }
        StatefulRedisPubSubConnection<String, String> subscribed = c;
        AutoCloseable close = () -> {
            subscribed.close();
            handler.shutdownNow();
        };
        others.add(close);
        return close;
    }

    /** @return the commands, each on {@link #timeout()} */
    public RedisCommands<String, String> commands() {
        return connection.sync();
    }

    /** @return this fixture's key prefix, {@code lab:<label>:<hex>:}; every key it writes starts with it */
    public String prefix() {
        return prefix;
    }

    /** @return each command's budget */
    public Duration timeout() {
        return timeout;
    }

    /** @return the server's URL */
    public String url() {
        return url;
    }

    /**
     * Closes the other connections, deletes the prefix's keys (SCAN, then DEL in batches) unless this fixture
     * {@link #attach}ed to another's, and shuts the client down; later calls do nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (AutoCloseable other : others) {
            try {
                other.close();
            } catch (Exception e) {
                // closing a connection to a server that is gone: nothing more to do
            }
        }
        try {
            if (!ownsKeys) {
                return; // the opener's keys
            }
            RedisCommands<String, String> c = connection.sync();
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> page = c.scan(cursor, ScanArgs.Builder.matches(prefix + "*").limit(1_000));
                if (!page.getKeys().isEmpty()) {
                    c.del(page.getKeys().toArray(String[]::new));
                }
                cursor = page;
            } while (!cursor.isFinished());
        } catch (RuntimeException e) {
            // Redis is gone or stalled: its keys expire on their own (every entry has a TTL)
        } finally {
            connection.close();
            shutdown(client);
        }
    }

    private static void shutdown(RedisClient client) {
        client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
