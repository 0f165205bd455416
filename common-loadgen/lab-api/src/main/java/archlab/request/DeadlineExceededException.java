package archlab.request;

/**
 * Thrown when a call gives up because the request's {@link Deadline} passed: the counterpart of Go's
 * {@code context.DeadlineExceeded}. Unchecked, so it crosses interfaces that do not declare it.
 */
public class DeadlineExceededException extends RuntimeException {

    public DeadlineExceededException(String what) {
        super(what + ": deadline exceeded");
    }
}
