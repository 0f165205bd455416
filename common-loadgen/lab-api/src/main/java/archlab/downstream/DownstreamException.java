package archlab.downstream;

/**
 * A downstream call failed: the stub refused it (an injected error) or could not finish it.
 * Unchecked, so it crosses the service's interfaces.
 *
 * <p>The message names the stub and the call index, e.g. {@code "inventory call #17: injected error ..."}.
 */
public class DownstreamException extends RuntimeException {

    private final String stub;
    private final long callIndex;

    /**
     * @param stub      the stub's name, such as {@code "inventory"}
     * @param callIndex the call's number at that stub, 0-based
     * @param problem   what went wrong, for the message
     */
    public DownstreamException(String stub, long callIndex, String problem) {
        this(stub, callIndex, problem, null);
    }

    public DownstreamException(String stub, long callIndex, String problem, Throwable cause) {
        super(stub + " call #" + callIndex + ": " + problem, cause);
        this.stub = stub;
        this.callIndex = callIndex;
    }

    /** @return the name of the stub that failed the call */
    public String stub() {
        return stub;
    }

    /** @return the failed call's number at its stub, 0-based in arrival order */
    public long callIndex() {
        return callIndex;
    }
}
