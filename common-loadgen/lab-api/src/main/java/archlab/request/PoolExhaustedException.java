package archlab.request;

/**
 * Thrown by a workload when a request needs an item it no longer has (for the book's workload: a
 * pay request finds no pre-created order left to pay). The runner counts it as its own outcome,
 * {@link RequestOutcome#POOL_EXHAUSTED}, never as a success.
 */
public class PoolExhaustedException extends RuntimeException {

    public PoolExhaustedException(String message) {
        super(message);
    }
}
