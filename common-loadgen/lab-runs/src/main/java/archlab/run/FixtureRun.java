package archlab.run;

import archlab.loadgen.Workload;
import java.util.function.Supplier;

/**
 * The life cycle of one run on a {@link LabFixture}, written once for every runner (a load run, a sweep's rates and
 * warm-up, the JIT warm-up, wrk's side by side): {@link LabFixture#beforeRun()}, the load on the fixture's workload,
 * {@link LabFixture#afterRun()}; {@link #once} also gets a fresh fixture first and closes it last. A runner that
 * measures around the load (the sweep's CPU time, a load run's JFR recording) says so with an {@link Around}.
 *
 * <p>Stateless; a fixture's run happens on the calling thread.
 */
public final class FixtureRun {

    /** @param <T> what the load returns; @param <E> what it may throw */
    @FunctionalInterface
    public interface Load<T, E extends Exception> {
        T on(Workload workload) throws E;
    }

    /** What a runner does around the load, on the calling thread. Default: nothing. */
    public interface Around {
        /** Just before {@link LabFixture#beforeRun()}: the fixture is built. */
        default void starting() {
        }

        /** The load returned; {@link LabFixture#afterRun()} is next. */
        default void loaded() {
        }

        /** {@link LabFixture#beforeRun()} or the load threw {@code failure}, which is thrown on after this. */
        default void failed(Throwable failure) {
        }
    }

    /** Nothing around the load. */
    public static final Around NOTHING = new Around() {
    };

    private FixtureRun() {
    }

    /** Runs {@code load} on a fresh fixture and closes it; returns what the load returned. */
    public static <T, E extends Exception> T once(Supplier<? extends LabFixture> fresh, Load<T, E> load) throws E {
        try (LabFixture fixture = fresh.get()) {
            return between(fixture, NOTHING, load);
        }
    }

    /**
     * {@link LabFixture#beforeRun()}, {@code load} on the fixture's workload, {@link LabFixture#afterRun()}, with
     * {@code around} told of each step; the caller reads the fixture's figures after this and then closes it.
     *
     * @return what the load returned
     */
    public static <T, E extends Exception> T between(LabFixture fixture, Around around, Load<T, E> load) throws E {
        around.starting();
        T result;
        try {
            fixture.beforeRun();
            result = load.on(fixture.workload());
        } catch (Exception | Error e) {
            around.failed(e);
            throw e;
        }
        around.loaded();
        fixture.afterRun();
        return result;
    }
}
