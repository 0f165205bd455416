package archlab.trace;

/** Segment names the harness itself records; services add their own names freely. */
public final class Segments {

    /**
     * From the request's planned start to the first line of its task: time spent in the generator and
     * the scheduler before the service saw the request.
     */
    public static final String SCHEDULING = "scheduling";

    /** Time inside the task that no named segment covers (service code between segments). */
    public static final String UNMARKED = "unmarked";

    private Segments() {
    }
}
