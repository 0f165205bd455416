package archlab.ladder.compute;

import archlab.ladder.compute.ComputeSegments.Stage;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The interface's business code between the database's rows and the bytes on the wire, as a {@link Compute} says: the
 * rows into entities, the entities mapped to views, the page's tag, the body, the request log. Each stage's time and
 * allocation is measured per request ({@link ComputeSegments}).
 *
 * <p>Thread-safe: called from many request threads at once; {@link #close} once, after the last request.
 */
public final class OrdersPage implements AutoCloseable {

    /**
     * One request's answer.
     *
     * @param body      the body's bytes
     * @param mediaType its media type
     * @param tag       the {@code ETag}: the page's tag for this representation ({@link PageTag#of})
     */
    public record Answer(byte[] body, String mediaType, String tag) {
    }

    private final Compute compute;
    private final RequestLog log;
    private final ComputeSegments segments = new ComputeSegments();

    /**
     * @param compute the choices
     * @param name    the request log's name ({@code <logDir>/<name>.log})
     * @param logDir  where the request log is written
     */
    public OrdersPage(Compute compute, String name, Path logDir) {
        this.compute = Objects.requireNonNull(compute, "compute");
        this.log = RequestLog.in(logDir, name, compute.logging());
    }

    /** @return {@code customer}'s page of {@code month} from the query's {@code rows} (column label to value) */
    public Answer answer(long customer, YearMonth month, List<Map<String, Object>> rows) {
        long t0 = System.nanoTime();
        long a0 = ComputeSegments.allocatedBytes();
        List<OrderEntity> entities = new ArrayList<>(rows.size());
        for (Map<String, Object> row : rows) {
            entities.add(OrderEntity.of(row));
        }
        long t1 = System.nanoTime();
        long a1 = ComputeSegments.allocatedBytes();
        List<OrderView> views = OrderMapping.views(entities, compute.mapping());
        long t2 = System.nanoTime();
        long a2 = ComputeSegments.allocatedBytes();
        String tag = PageTag.of(views, compute.text(), compute.encoding());
        long t3 = System.nanoTime();
        long a3 = ComputeSegments.allocatedBytes();
        byte[] body = OrdersBody.encode(customer, month, views, compute.encoding());
        long t4 = System.nanoTime();
        long a4 = ComputeSegments.allocatedBytes();
        log.answered(customer, month, new OrdersBody.Page(customer, month.toString(), views), body.length);
        long t5 = System.nanoTime();
        long a5 = ComputeSegments.allocatedBytes();
        segments.add(Stage.ROWS, t1 - t0, a1 - a0);
        segments.add(Stage.MAP, t2 - t1, a2 - a1);
        segments.add(Stage.TAG, t3 - t2, a3 - a2);
        segments.add(Stage.ENCODE, t4 - t3, a4 - a3);
        segments.add(Stage.LOG, t5 - t4, a5 - a4);
        segments.request(body.length);
        return new Answer(body, OrdersBody.mediaType(compute.encoding()), tag);
    }

    /** @return the choices */
    public Compute compute() {
        return compute;
    }

    /** @return the stages' sums */
    public ComputeSegments segments() {
        return segments;
    }

    /** @return the request log */
    public RequestLog log() {
        return log;
    }

    @Override
    public void close() {
        log.close();
    }
}
