package archlab.run.testing;

import archlab.redis.CacheKind;
import archlab.run.LabCache;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;

/**
 * The read cache a checkpoint's test runs with, and the skip of a test that needs Redis when none answers: the test is
 * aborted (JUnit: skipped) with the line {@link LabCache#NOT_RUNNING}, printed as well (once per JVM and reason), never
 * silently. The cache's counterpart of {@link StoreUnderTest}.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class CacheUnderTest {

    private static final Set<String> PRINTED = ConcurrentHashMap.newKeySet();
    /** Each choice's answer, asked once per JVM: a missing server costs one connection attempt, not one per test. */
    private static final Map<LabCache, Optional<String>> ASKED = new ConcurrentHashMap<>();

    private CacheUnderTest() {
    }

    /**
     * @return the reader's {@code -Dlab.cache} choice
     * @throws IllegalStateException when the reader asked for Redis and none answers: the run fails, naming the command
     *                               that starts it (as {@link StoreUnderTest#chosenAndUsable()})
     */
    public static LabCache chosenAndUsable() {
        LabCache cache = LabCache.fromSystem();
        Optional<String> why = ASKED.computeIfAbsent(cache, LabCache::unavailable);
        if (why.isPresent()) {
            throw new IllegalStateException("-Dlab.cache=redis was asked for, and " + why.get());
        }
        return cache;
    }

    /** @return Redis as {@code -Dlab.redis.url} or the script's server says, whatever {@code -Dlab.cache} says; skips without one */
    public static LabCache redis() {
        LabCache chosen = LabCache.fromSystem();
        LabCache cache = new LabCache(CacheKind.REDIS, chosen.redisUrl(), chosen.urlSource());
        assumeUsable(cache);
        return cache;
    }

    /** Skips the calling test, printing why, when {@code cache} cannot be used; nothing otherwise. */
    public static void assumeUsable(LabCache cache) {
        Optional<String> why = ASKED.computeIfAbsent(cache, LabCache::unavailable);
        if (why.isPresent() && PRINTED.add(why.get())) {
            System.out.println("[lab] skipped: " + why.get());
        }
        why.ifPresent(Assumptions::abort);
    }
}
