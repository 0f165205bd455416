package archlab.loadgen;

import archlab.request.RequestContext;

/**
 * What each request of an open-loop run does. The runner asks which operation request {@code sequence}
 * is (to keep per-operation figures), then runs it on the request's own thread.
 *
 * <p>Thread-safety: {@link #execute} is called concurrently from many threads.
 */
public interface Workload {

    /** @return the operation name of request {@code sequence} (1-based), e.g. "create"; a pure function */
    String operationOf(long sequence);

    /**
     * Runs request {@code sequence}. Return normally for success; throw
     * {@link RequestRejectedException} for a refusal, {@link PoolExhaustedException} when there is
     * nothing left to send, anything else for a failure.
     */
    void execute(long sequence, String operation, RequestContext ctx) throws Exception;
}
