package archlab.redis;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a checkpoint's second-level cache may do with Redis, and nothing more: string entries under one fixture's key
 * prefix, each with a <em>generation</em> that every invalidation raises, so that a fill that raced a write is refused.
 * Made by {@link LabRedis#generationalCache()}; a service gets this object, never the connection, so it can neither
 * reach another server nor another fixture's keys (a graded solution is code the grader does not trust).
 *
 * <p>The race it closes, the one every cache-aside second level has: a reader misses, reads the row, and before it
 * writes the row into Redis a writer changes the row and deletes the key; the reader's write puts the old row back,
 * and every instance serves it until it expires. Here the reader {@link #get}s the entry and its generation in one
 * round trip ({@code MGET}), and {@link #fillIfUnchanged} writes only if the generation is still the one it saw (a
 * script: compare, then {@code SET … PX}); {@link #invalidate} raises the generation and deletes the entry in one
 * script.
 *
 * <p>Every invalidation is also published, in the same script, on the prefix's channel ({@code <prefix>changed}, the
 * key as the message): a service with a first level in its own heap that runs as several instances
 * {@link #onInvalidated subscribes} to drop its copy when another instance changed the row. Redis's pub/sub delivers at
 * most once and only to subscribers connected at the time: a message lost to a broken connection leaves that copy until
 * its own lifetime ends.
 *
 * <p>Every call has the connection's timeout ({@link #timeout()}); a call that fails or times out throws
 * {@link UnavailableException}: Redis is a cache, and its caller decides what to do without it.
 *
 * <p>Thread-safety: safe from any number of threads (Lettuce's connection is).
 */
public final class GenerationalCache {

    /** Redis failed or did not answer in time; the message says which. */
    public static final class UnavailableException extends RuntimeException {
        UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * @param value      the entry, when there is one
     * @param generation the key's generation as it was read ("" when none was ever raised)
     */
    public record Lookup(Optional<String> value, String generation) {
    }

    // KEYS[1] the entry, KEYS[2] the generation; ARGV[1] the generation the reader saw, ARGV[2] the value, ARGV[3] its
    // lifetime in ms. Fills only when no invalidation came in between.
    private static final String FILL = """
            local g = redis.call('GET', KEYS[2]) or ''
            if g == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end
            return 0""";
    // KEYS[1] the entry, KEYS[2] the generation; ARGV[1] the generation's lifetime in ms
    // ARGV[2] the key published, ARGV[3] the channel (not a key: a channel names no data)
    private static final String INVALIDATE = """
            redis.call('INCR', KEYS[2])
            redis.call('PEXPIRE', KEYS[2], ARGV[1])
            local deleted = redis.call('DEL', KEYS[1])
            redis.call('PUBLISH', ARGV[3], ARGV[2])
            return deleted""";

    /** Subscribes a listener to a channel; closing what it returns unsubscribes. */
    @FunctionalInterface
    interface Subscriber {
        AutoCloseable subscribe(String channel, Consumer<String> listener);
    }

    private final RedisCommands<String, String> redis;
    private final String prefix;
    private final Duration timeout;
    private final String url;
    private final Subscriber subscriber;

    GenerationalCache(RedisCommands<String, String> redis, String prefix, Duration timeout, String url, Subscriber subscriber) {
        this.subscriber = Objects.requireNonNull(subscriber, "subscriber");
        this.redis = Objects.requireNonNull(redis, "redis");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.url = Objects.requireNonNull(url, "url");
    }

    /** @return the entry of {@code key} and its generation, in one round trip */
    public Lookup get(String key) {
        try {
            List<KeyValue<String, String>> got = redis.mget(entry(key), generation(key));
            return new Lookup(got.get(0).hasValue() ? Optional.of(got.get(0).getValue()) : Optional.empty(),
                    got.get(1).getValueOrElse(""));
        } catch (RuntimeException e) { // RedisException, or the client's own state (closed)
            throw new UnavailableException("Redis get of " + key + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code value} for {@code key}, to live {@code ttl}, unless the key was invalidated since its generation was
     * {@code seenGeneration}.
     *
     * @return whether it was written
     */
    public boolean fillIfUnchanged(String key, String seenGeneration, String value, Duration ttl) {
        try {
            Long filled = redis.eval(FILL, ScriptOutputType.INTEGER, new String[]{entry(key), generation(key)},
                    seenGeneration, value, Long.toString(Math.max(1, ttl.toMillis())));
            return filled != null && filled == 1;
        } catch (RuntimeException e) { // RedisException, or the client's own state (closed)
            throw new UnavailableException("Redis fill of " + key + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Raises {@code key}'s generation and deletes its entry, in one script.
     *
     * @param generationTtl how long the raised generation is kept: longer than any entry lives, so that a fill that
     *                      saw the old one is still refused
     */
    public void invalidate(String key, Duration generationTtl) {
        try {
            redis.eval(INVALIDATE, ScriptOutputType.INTEGER, new String[]{entry(key), generation(key)},
                    Long.toString(Math.max(1, generationTtl.toMillis())), key, channel());
        } catch (RuntimeException e) { // RedisException, or the client's own state (closed)
            throw new UnavailableException("Redis invalidation of " + key + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Calls {@code listener} with the key of every invalidation published from now on, by any instance on this prefix
     * (this one's too), on Lettuce's event thread: it must be quick. Closing what it returns stops it.
     *
     * @throws UnavailableException when the subscription cannot be made
     */
    public AutoCloseable onInvalidated(Consumer<String> listener) {
        Objects.requireNonNull(listener, "listener");
        try {
            return subscriber.subscribe(channel(), listener);
        } catch (RuntimeException e) {
            throw new UnavailableException("Redis subscription to " + channel() + " failed: " + e.getMessage(), e);
        }
    }

    /** @return each call's budget */
    public Duration timeout() {
        return timeout;
    }

    /** @return the server's URL, for reports */
    public String url() {
        return url;
    }

    private String entry(String key) {
        return prefix + "v:" + key;
    }

    private String channel() {
        return prefix + "changed";
    }

    private String generation(String key) {
        return prefix + "g:" + key;
    }
}
