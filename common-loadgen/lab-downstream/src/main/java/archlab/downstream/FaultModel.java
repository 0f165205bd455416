package archlab.downstream;

/**
 * Decides which calls of a stub fail. {@link ErrorInjection} is the seeded, per-call-index one; a
 * scenario may combine it with a time window ("the notifier is down from 1.0 s to 2.0 s").
 *
 * <p>Contract: {@link #failsCall(long)} is safe to call from any number of threads.
 */
@FunctionalInterface
public interface FaultModel {

    /** @return whether call {@code callIndex} (0-based, in arrival order) fails */
    boolean failsCall(long callIndex);

    /** @return a model under which a call fails if this one or {@code other} says so */
    default FaultModel or(FaultModel other) {
        return callIndex -> failsCall(callIndex) || other.failsCall(callIndex);
    }
}
