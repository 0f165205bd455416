package archlab.run;

import archlab.redis.CacheKind;
import archlab.redis.LabRedis;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a run's read cache keeps its entries, as the reader chose: {@code -Dlab.cache=local|redis} (local unless told:
 * Caffeine in the service's heap, the book's) and {@code -Dlab.redis.url} (default: the URL {@code .servers/redis.sh start}
 * wrote to {@value #URL_FILE} under the repository's root). With {@code redis}, a checkpoint that has a read cache puts a
 * second level in Redis behind it. A fixture asks {@link #unavailable()} before it connects ({@link #openRedis}); when
 * Redis cannot be reached, the line it gets back says so and how to start it, and the test is skipped with that line.
 *
 * @param kind      local or redis
 * @param redisUrl  the server's URL, when one is known (given, or written by the script)
 * @param urlSource where {@code redisUrl} came from, for messages
 */
public record LabCache(CacheKind kind, Optional<String> redisUrl, String urlSource) {

    /** Where the read cache keeps its entries. */
    public static final LabProperties.Key<CacheKind> CACHE = new LabProperties.Key<>("lab.cache",
            "where the read cache keeps its entries: local, or redis (a second level behind the local one)", "redis",
            (property, v) -> LabValueParsers.oneOf(property, v, CacheKind.class, "local or redis"));
    /** The Redis server of {@code lab.cache=redis}, when not the one {@code .servers/redis.sh} started. */
    public static final LabProperties.Key<String> REDIS_URL = new LabProperties.Key<>("lab.redis.url",
            "the Redis server for lab.cache=redis (default: the one .servers/redis.sh started)", "redis://127.0.0.1:6379",
            LabCache::checkedRedisUrl);

    /** Where {@code .servers/redis.sh start} writes the URL, relative to the repository's root. */
    public static final String URL_FILE = "target/servers/redis/redis.url";
    /** The start of the line a test prints when it is skipped for want of a server. */
    public static final String NOT_RUNNING = "Redis not running: start it with `bash .servers/redis.sh start`";
    /** The report line a fixture with a second level in Redis adds; {@link LabRun} checks it. */
    public static final String REPORT_LINE = "cache_l2";

    public LabCache {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(redisUrl, "redisUrl");
        Objects.requireNonNull(urlSource, "urlSource");
    }

    /** @return the reader's choice from this JVM's {@code -Dlab.*} properties */
    public static LabCache fromSystem() {
        return read(LabProperties.fromSystem(), Path.of(System.getProperty("archlab.module.dir", ".")));
    }

    static LabCache read(LabProperties lab, Path from) {
        CacheKind kind = lab.get(CACHE).orElse(CacheKind.LOCAL);
        Optional<String> given = lab.get(REDIS_URL);
        if (given.isPresent()) {
            return new LabCache(kind, given, "-D" + REDIS_URL.property());
        }
        Optional<Path> file = ServerUrlFile.find(from, URL_FILE);
        return file.map(f -> new LabCache(kind, ServerUrlFile.read(f), f.toString()))
                .orElseGet(() -> new LabCache(kind, Optional.empty(), "no -D" + REDIS_URL.property() + ", no " + URL_FILE));
    }

    /** Accepts {@code redis://host:port} (trimmed); else names the property. */
    static String checkedRedisUrl(String property, String v) {
        String u = v.trim();
        if (!u.matches("redis://[^\\s/]+:\\d{1,5}(/\\d{1,2})?")) {
            throw new IllegalArgumentException(property + " must be a Redis URL such as redis://127.0.0.1:6379, was '" + v + "'");
        }
        return u;
    }

    /** @return whether the cache has a second level in Redis */
    public boolean redis() {
        return kind == CacheKind.REDIS;
    }

    /**
     * @return empty when the cache can be used (always local; with Redis when a PING was answered), else the line
     *         saying why not: {@value #NOT_RUNNING}, then the URL tried and the client's message
     */
    public Optional<String> unavailable() {
        if (!redis()) {
            return Optional.empty();
        }
        if (redisUrl.isEmpty()) {
            return Optional.of(NOT_RUNNING + " (" + urlSource + ")");
        }
        return LabRedis.unreachable(redisUrl.get()).map(why -> NOT_RUNNING + " (" + redisUrl.get() + " from " + urlSource + ": " + why + ")");
    }

    /**
     * Connects one fixture to Redis with a fresh key prefix ({@link LabRedis}); the caller closes it.
     *
     * @throws IllegalStateException when the cache is local or Redis cannot be used ({@link #unavailable()})
     */
    public LabRedis openRedis(String label) {
        if (!redis()) {
            throw new IllegalStateException("lab.cache=local opens no Redis");
        }
        unavailable().ifPresent(why -> {
            throw new IllegalStateException(why);
        });
        return LabRedis.open(redisUrl.orElseThrow(), label, LabRedis.DEFAULT_TIMEOUT);
    }
}
