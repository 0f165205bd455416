package archlab.http;

/**
 * An error status the server answered that the runner has no outcome of its own for (400, 404, 409, 503, 500…), as
 * {@link HttpOrderTarget} throws it: the status and the server's {@code error} message. (429 and 504 come back as the
 * harness's own {@link archlab.request.RequestRejectedException} and {@link archlab.request.DeadlineExceededException}.)
 */
public final class HttpStatusException extends RuntimeException {

    private final int status;

    public HttpStatusException(int status, String error) {
        super("HTTP " + status + ": " + error);
        this.status = status;
    }

    /** @return the HTTP status code */
    public int status() {
        return status;
    }
}
