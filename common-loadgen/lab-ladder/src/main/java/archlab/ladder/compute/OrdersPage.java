package archlab.ladder.compute;

import archlab.ladder.compute.ComputeSegments.Stage;
import archlab.ladder.monitor.RequestTracer;
import archlab.ladder.monitor.Tracing;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The interface's business code between the database's rows and the bytes on the wire, as a {@link Compute} says: the
 * rows into entities, the entities mapped to views, the page's tag, the body, the request log — then the request traced
 * as a {@link Tracing} says ({@link RequestTracer}). Each stage's time and allocation is measured per request
 * ({@link ComputeSegments}), the tracing's as a stage of its own.
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

    /**
     * When the request reached the servlet and when its database read ran ({@link System#nanoTime} marks), for its
     * trace.
     *
     * @param startNanos     the request's start
     * @param readStartNanos the read's start
     * @param readEndNanos   the read's end
     */
    public record Received(long startNanos, long readStartNanos, long readEndNanos) {

        /** @return a request received now, with no database read (a benchmark's) */
        public static Received now() {
            long now = System.nanoTime();
            return new Received(now, now, now);
        }
    }

    private static final List<String> STAGE_SPANS = java.util.Arrays.stream(Stage.values()).filter(s -> s != Stage.TRACE)
            .map(s -> s.name().toLowerCase(java.util.Locale.ROOT)).toList();

    private final Compute compute;
    private final RequestLog log;
    private final RequestTracer tracer;
    private final ComputeSegments segments = new ComputeSegments();

    /**
     * @param compute the choices
     * @param tracing how requests are traced
     * @param name    the request log's name ({@code <logDir>/<name>.log}) and the trace file's
     *                ({@code <logDir>/<name>.trace.log})
     * @param logDir  where the request log and the trace file are written
     * @throws IllegalStateException when another page's tracer is open in this JVM ({@link RequestTracer})
     */
    public OrdersPage(Compute compute, Tracing tracing, String name, Path logDir) {
        this.compute = Objects.requireNonNull(compute, "compute");
        this.log = RequestLog.in(logDir, name, compute.logging());
        try {
            this.tracer = new RequestTracer(tracing, logDir.resolve(name + ".trace.log"), STAGE_SPANS);
        } catch (RuntimeException e) {
            log.close();
            throw e;
        }
    }

    /** @return {@code customer}'s page of {@code month} from the query's {@code rows}, received now, read before */
    public Answer answer(long customer, YearMonth month, List<Map<String, Object>> rows) {
        return answer(customer, month, rows, Received.now());
    }

    /**
     * @param rows     the query's rows (column label to value)
     * @param received when the request arrived and was read, for its trace
     * @return {@code customer}'s page of {@code month}
     */
    public Answer answer(long customer, YearMonth month, List<Map<String, Object>> rows, Received received) {
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
        OrdersBody.Page page = new OrdersBody.Page(customer, month.toString(), views);
        log.answered(customer, month, page, body.length);
        long t5 = System.nanoTime();
        long a5 = ComputeSegments.allocatedBytes();
        // the answer serialised for the trace (the article's 参数序列化), only when the tracer asks for it
        tracer.trace(new RequestTracer.Request(customer, month, views.size(), body.length,
                () -> new String(OrdersBody.json(page), java.nio.charset.StandardCharsets.UTF_8),
                new long[] {received.startNanos(), received.readStartNanos(), received.readEndNanos(), t0, t1, t2, t3, t4, t5}));
        long t6 = System.nanoTime();
        long a6 = ComputeSegments.allocatedBytes();
        segments.add(Stage.ROWS, t1 - t0, a1 - a0);
        segments.add(Stage.MAP, t2 - t1, a2 - a1);
        segments.add(Stage.TAG, t3 - t2, a3 - a2);
        segments.add(Stage.ENCODE, t4 - t3, a4 - a3);
        segments.add(Stage.LOG, t5 - t4, a5 - a4);
        segments.add(Stage.TRACE, t6 - t5, a6 - a5);
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

    /** @return the tracer */
    public RequestTracer tracer() {
        return tracer;
    }

    /** Closes the request log and the tracer, each writing what its queue still holds. */
    @Override
    public void close() {
        try {
            log.close();
        } finally {
            tracer.close();
        }
    }
}
