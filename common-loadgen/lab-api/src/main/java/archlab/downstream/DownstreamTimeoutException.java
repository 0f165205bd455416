package archlab.downstream;

import archlab.request.DeadlineExceededException;

/**
 * A downstream call gave up because the request's deadline passed, either before the call arrived or
 * while its reply was on the way. In the second case the downstream <em>did</em> act (the stock is
 * reserved, the money charged): a client timeout does not undo what the server did.
 *
 * <p>The message names the stub, the call index and when the deadline passed, e.g.
 * {@code "payments call #3 (deadline passed during the reply delay): deadline exceeded"}.
 */
public class DownstreamTimeoutException extends DeadlineExceededException {

    private final String stub;
    private final long callIndex;
    private final boolean passedOnArrival;

    /**
     * @param stub            the stub's name, such as {@code "payments"}
     * @param callIndex       the call's number at that stub, 0-based
     * @param passedOnArrival {@code true} if the deadline had passed when the call arrived (the downstream
     *                        did nothing); {@code false} if it passed during the reply delay
     */
    public DownstreamTimeoutException(String stub, long callIndex, boolean passedOnArrival) {
        super(stub + " call #" + callIndex
                + (passedOnArrival ? " (deadline had passed on arrival)" : " (deadline passed during the reply delay)"));
        this.stub = stub;
        this.callIndex = callIndex;
        this.passedOnArrival = passedOnArrival;
    }

    /**
     * For a subclass that says more, or a timeout rebuilt from its fields (a remote client re-throwing the server's).
     *
     * @param message what timed out and when; the exception's message is it followed by {@code ": deadline exceeded"}
     */
    public DownstreamTimeoutException(String stub, long callIndex, boolean passedOnArrival, String message) {
        super(message);
        this.stub = stub;
        this.callIndex = callIndex;
        this.passedOnArrival = passedOnArrival;
    }

    /** @return the name of the stub whose call timed out */
    public String stub() {
        return stub;
    }

    /** @return the call's number at its stub, 0-based in arrival order */
    public long callIndex() {
        return callIndex;
    }

    /**
     * @return {@code true} if the deadline had already passed when the call arrived, so the downstream
     *         did nothing; {@code false} if it passed while the reply was on the way, after the downstream acted
     */
    public boolean passedOnArrival() {
        return passedOnArrival;
    }
}
