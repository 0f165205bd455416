package archlab.loadgen;

/** How a load run sends its requests. */
public enum Loop {
    /** On a schedule, whether or not earlier requests answered ({@link OpenLoopRunner}): the lab's default. */
    OPEN,
    /** Each of N connections sends its next request when its previous one answered ({@link ClosedLoopRunner}), as wrk. */
    CLOSED
}
