package archlab.ladder.monitor;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import io.opentelemetry.sdk.common.Clock;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The interface's tracing on OpenTelemetry's SDK, the way a {@link Tracing} says: a tracer provider of its own (its
 * sampler and span processors), the SDK's logging exporter ({@link LoggingSpanExporter}, one line per span through
 * {@code java.util.logging}) writing to one file, and {@link TraceSegments} reading every span kept.
 *
 * <p>A request is traced after its stages ran ({@link #trace}): its span and its stages' are built with the times the
 * stages measured, so the tracing's own work is one block the page can time and count apart from the stages it
 * describes. That block is what an agent adds to a request: the sampler's decision, the spans, their attributes, and
 * — {@link Tracing#EVERY_REQUEST} — their export on the request's thread.
 *
 * <p>The logging exporter logs to one JVM-wide {@code java.util.logging} logger: only one tracer may be open at a time
 * in a JVM ({@link IllegalStateException} otherwise), so that each file holds its own tracer's spans.
 *
 * <p>Thread-safe: {@link #trace} from many request threads at once; {@link #close} once, after the last request.
 */
public final class RequestTracer implements AutoCloseable {

    /** The sampled side keeps one trace in this many. */
    public static final int SAMPLE_ONE_IN = 100;
    /** The batch processor's queue, in spans: a full queue drops a span rather than hold the request. */
    public static final int QUEUE_SPANS = 2048;

    private static final AtomicBoolean OPEN = new AtomicBoolean();
    private static final AttributeKey<Long> CUSTOMER = AttributeKey.longKey("app.customer");
    private static final AttributeKey<String> MONTH = AttributeKey.stringKey("app.month");
    private static final AttributeKey<Long> ORDERS = AttributeKey.longKey("app.orders");
    private static final AttributeKey<Long> BODY_BYTES = AttributeKey.longKey("http.response.body.size");
    private static final AttributeKey<String> ANSWER = AttributeKey.stringKey("app.answer");

    /**
     * One request, as the page measured it.
     *
     * @param customer  the customer asked for
     * @param month     the month asked for
     * @param orders    the orders answered
     * @param bodyBytes the body's size
     * @param answer    the whole answer (its text is captured only by {@link Tracing#EVERY_REQUEST})
     * @param times     {@link System#nanoTime} marks: the request's start, the database read's start and end, then the
     *                  start of the first stage and the end of each stage, in the order the tracer's stage names give
     */
    public record Request(long customer, YearMonth month, int orders, int bodyBytes, Object answer, long[] times) {
    }

    private final Tracing tracing;
    private final List<String> stages;
    private final Path file;
    private final TraceSegments segments = new TraceSegments();
    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final Logger exporterLog = Logger.getLogger(LoggingSpanExporter.class.getName());
    private final FileHandler handler;
    private final boolean parentHandlers;
    private final long epochNanosAtStart;
    private final long nanoTimeAtStart;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param tracing what is traced, and how
     * @param file    the trace file, written afresh (its folder created when missing)
     * @param stages  the stages' span names, in the order a request runs them
     * @throws IllegalStateException when another tracer is open in this JVM
     */
    public RequestTracer(Tracing tracing, Path file, List<String> stages) {
        this(tracing, file, stages, 0);
    }

    /**
     * @param fileLimitBytes past this many bytes the file starts again from empty ({@code java.util.logging}'s rotation
     *                       onto one file), so that a benchmark's millions of calls keep the disk; 0: no limit (the
     *                       ladder, which measures the file)
     */
    public RequestTracer(Tracing tracing, Path file, List<String> stages, int fileLimitBytes) {
        this.tracing = Objects.requireNonNull(tracing, "tracing");
        this.stages = List.copyOf(stages);
        this.file = file;
        if (!OPEN.compareAndSet(false, true)) {
            throw new IllegalStateException("another RequestTracer is open: its spans and this one's would share a file");
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            handler = new FileHandler(file.toString().replace("%", "%%"), fileLimitBytes, 1, false);
        } catch (IOException | RuntimeException e) {
            OPEN.set(false);
            throw new UncheckedIOException("the trace file " + file + " could not be opened for writing",
                    e instanceof IOException io ? io : new IOException(e));
        }
        handler.setFormatter(new SpanLine());
        parentHandlers = exporterLog.getUseParentHandlers();
        exporterLog.setUseParentHandlers(false); // the spans go to the file, not to the console
        exporterLog.addHandler(handler);
        SpanProcessor export = tracing == Tracing.EVERY_REQUEST ? SimpleSpanProcessor.create(LoggingSpanExporter.create())
                : BatchSpanProcessor.builder(LoggingSpanExporter.create()).setMaxQueueSize(QUEUE_SPANS).build();
        provider = SdkTracerProvider.builder()
                .setSampler(tracing == Tracing.EVERY_REQUEST ? Sampler.alwaysOn() : Sampler.traceIdRatioBased(1.0 / SAMPLE_ONE_IN))
                .addSpanProcessor(segments).addSpanProcessor(export).build();
        tracer = provider.get("archlab.ladder");
        epochNanosAtStart = Clock.getDefault().now();
        nanoTimeAtStart = System.nanoTime();
    }

    // tag::trace[]
    /** Traces one request the way this tracer's {@link Tracing} says. */
    public void trace(Request r) {
        long[] t = r.times();
        Span request = tracer.spanBuilder("GET /users/{id}/orders").setSpanKind(SpanKind.SERVER).setNoParent()
                .setStartTimestamp(epochNanos(t[0]), TimeUnit.NANOSECONDS).startSpan();
        if (!request.isRecording()) {
            return; // RIGHT: not sampled — nothing more is built
        }
        Context parent = Context.root().with(request);
        child("database", parent, t[1], t[2]);
        for (int i = 0; i < stages.size(); i++) {
            child(stages.get(i), parent, t[3 + i], t[4 + i]);
        }
        request.setAttribute(CUSTOMER, r.customer()).setAttribute(MONTH, r.month().toString())
                .setAttribute(ORDERS, (long) r.orders()).setAttribute(BODY_BYTES, (long) r.bodyBytes());
        if (tracing == Tracing.EVERY_REQUEST) {
            request.setAttribute(ANSWER, String.valueOf(r.answer())); // WRONG: the whole answer, on every request
        }
        request.end(epochNanos(t[3 + stages.size()]), TimeUnit.NANOSECONDS);
    }
    // end::trace[]

    private void child(String name, Context parent, long startNanos, long endNanos) {
        tracer.spanBuilder(name).setParent(parent).setStartTimestamp(epochNanos(startNanos), TimeUnit.NANOSECONDS)
                .startSpan().end(epochNanos(endNanos), TimeUnit.NANOSECONDS);
    }

    private long epochNanos(long nanoTime) {
        return epochNanosAtStart + (nanoTime - nanoTimeAtStart);
    }

    /** @return what the traces kept say, per span name */
    public TraceSegments segments() {
        return segments;
    }

    /** @return what is traced, and how */
    public Tracing tracing() {
        return tracing;
    }

    /** @return the trace file */
    public Path file() {
        return file;
    }

    /** @return the trace file's size now, bytes (0 when it is missing) */
    public long fileBytes() {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Exports what the batch processor still holds, then closes the file; a second call does nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            provider.shutdown().join(10, TimeUnit.SECONDS);
        } finally {
            exporterLog.removeHandler(handler);
            exporterLog.setUseParentHandlers(parentHandlers);
            handler.close();
            OPEN.set(false);
        }
    }

    /** One span per line, as the exporter wrote it, after the time it was written. */
    private static final class SpanLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            return record.getInstant() + " " + record.getMessage() + System.lineSeparator();
        }
    }
}
