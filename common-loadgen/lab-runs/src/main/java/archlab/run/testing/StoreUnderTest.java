package archlab.run.testing;

import archlab.run.LabStore;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The store a checkpoint's test runs on, and what happens when PostgreSQL cannot be reached: a test of the store
 * itself ({@link #postgres()}) is aborted (JUnit: skipped) with the line {@link LabStore#NOT_RUNNING}, printed as well
 * (once per JVM and reason), never silently; a run the reader asked for with {@code -Dlab.store=postgres}
 * ({@link #chosenAndUsable()}) fails with that line. Call it from {@code @BeforeEach} or the test itself, so that every test it skips is counted as skipped.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class StoreUnderTest {

    private static final java.util.Set<String> PRINTED = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Each store's answer, asked once per JVM: a missing server costs a connection attempt, not one per test. */
    private static final java.util.Map<LabStore, Optional<String>> ASKED = new java.util.concurrent.ConcurrentHashMap<>();

    private StoreUnderTest() {
    }

    /**
     * @return the reader's {@code -Dlab.store} choice
     * @throws IllegalStateException when the reader asked for PostgreSQL and none answers: a run asked for on a server
     *                               fails, naming the command that starts it (it is not skipped: a skipped run would
     *                               exit 0 and the reader would read the in-memory report as the answer)
     */
    public static LabStore chosenAndUsable() {
        LabStore store = LabStore.fromSystem();
        Optional<String> why = why(store);
        if (why.isPresent()) {
            throw new IllegalStateException("-Dlab.store=postgres was asked for, and " + why.get());
        }
        return store;
    }

    /**
     * @return the store {@code -Dlab.jdbc.url} or the script's server points at, PostgreSQL whatever {@code -Dlab.store}
     *         says (for the tests of a PostgreSQL store itself); skips the calling test when none answers
     */
    public static LabStore postgres() {
        LabStore chosen = LabStore.fromSystem();
        LabStore store = new LabStore(archlab.db.StoreKind.POSTGRES, chosen.jdbcUrl(), chosen.urlSource(), chosen.poolSize());
        assumeUsable(store);
        return store;
    }

    /**
     * For a {@code @BeforeAll} that runs a load only when its tests will not be skipped (pair it with
     * {@link #chosenAndUsable()} in a {@code @BeforeEach}, which skips each test, counted).
     *
     * @return whether the reader's {@code -Dlab.store} choice can be used; prints why not
     */
    public static boolean chosenIsUsable() {
        return why(LabStore.fromSystem()).isEmpty();
    }

    /** Skips the calling test, printing why, when {@code store} cannot be used; nothing otherwise. */
    public static void assumeUsable(LabStore store) {
        why(store).ifPresent(Assumptions::abort);
    }

    private static Optional<String> why(LabStore store) {
        Optional<String> why = ASKED.computeIfAbsent(store, LabStore::unavailable);
        if (why.isPresent() && PRINTED.add(why.get())) {
            System.out.println("[lab] skipped: " + why.get());
        }
        return why;
    }

    /**
     * Skips the calling test — or, from a {@code @BeforeAll}, its class — unless the run is the book's setup: orders in
     * memory and the local cache only. For a run kind that is a lesson measured on that setup, whose claims a PostgreSQL
     * store ({@code -Dlab.store=postgres}) or a second level in Redis ({@code -Dlab.cache=redis}) would judge on other
     * costs. Prints the line once per JVM and run kind, never silently.
     *
     * @param runKind the run kind skipped, e.g. "overload"
     * @param why     why its claims are the book setup's
     */
    public static void inMemoryOnly(String runKind, String why) {
        String other = LabStore.fromSystem().postgres() ? "-Dlab.store=postgres"
                : archlab.run.LabCache.fromSystem().redis() ? "-Dlab.cache=redis" : null;
        if (other != null) {
            String line = runKind + " runs on the book's setup only (orders in memory, the local cache), not with " + other + ": " + why;
            if (PRINTED.add(line)) {
                System.out.println(line);
            }
            Assumptions.abort(line);
        }
    }
}
