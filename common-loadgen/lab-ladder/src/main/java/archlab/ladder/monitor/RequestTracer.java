package archlab.ladder.monitor;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import io.opentelemetry.sdk.common.Clock;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.logging.ErrorManager;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * The interface's tracing on OpenTelemetry's SDK, the way a {@link Tracing} says: a tracer provider of its own (its
 * sampler and span processors), the SDK's logging exporter ({@link LoggingSpanExporter}, one line per span through
 * {@code java.util.logging}) writing to one file, and {@link TraceSegments} reading every span kept.
 *
 * <p>A request is traced after its stages ran ({@link #trace}): its span and its stages' are built with the times the
 * stages measured, so the tracing's own work is one block the page can time and count apart from the stages it
 * describes. That block is what an agent adds to a request: the sampler's decision, the spans, their attributes (the
 * whole answer serialised, for {@link Tracing#EVERY_REQUEST}), and — for that side — their export on the request's
 * thread.
 *
 * <p>The logging exporter logs to one JVM-wide {@code java.util.logging} logger: only one tracer may be open at a time
 * in a JVM ({@link IllegalStateException} otherwise), so that each file holds its own tracer's spans. The file is
 * written by a stream handler flushed at every span (no lock file, no renaming); a write that fails makes
 * {@link #fileBytes} and {@link #close} throw rather than report a short file.
 *
 * <p>Thread-safe: {@link #trace} from many request threads at once; {@link #flush} and {@link #fileBytes} while no
 * request is traced; {@link #close} once, after the last request (a second call does nothing).
 */
public final class RequestTracer implements AutoCloseable {

    /** The sampled side keeps one trace in this many. */
    public static final int SAMPLE_ONE_IN = 100;
    /** The batch processor's queue, in spans: a full queue drops a span rather than hold the request. */
    public static final int QUEUE_SPANS = 2048;
    /** How long {@link #flush} and {@link #close} wait for the exporter. */
    public static final long EXPORT_WAIT_SECONDS = 10;

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
     * @param answer    the whole answer serialised, called only by {@link Tracing#EVERY_REQUEST} (on the request's
     *                  thread, inside the tracing's block)
     * @param times     {@link System#nanoTime} marks: the request's start, the database read's start and end, then the
     *                  start of the first stage and the end of each stage, in the order the tracer's stage names give
     */
    public record Request(long customer, YearMonth month, int orders, int bodyBytes, Supplier<String> answer, long[] times) {
    }

    private final Tracing tracing;
    private final List<String> stages;
    private final Path file;
    private final TraceSegments segments = new TraceSegments();
    private final Logger exporterLog = Logger.getLogger(LoggingSpanExporter.class.getName());
    private final AtomicReference<Exception> writeFailure = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final StreamHandler handler;
    private final boolean parentHandlers;
    private final Level level;
    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final long epochNanosAtStart;
    private final long nanoTimeAtStart;

    /**
     * @param tracing what is traced, and how
     * @param file    the trace file, written afresh (its folder created when missing)
     * @param stages  the stages' span names, in the order a request runs them
     * @throws IllegalStateException when another tracer is open in this JVM
     * @throws UncheckedIOException  when the file cannot be opened for writing
     */
    public RequestTracer(Tracing tracing, Path file, List<String> stages) {
        this.tracing = Objects.requireNonNull(tracing, "tracing");
        this.stages = List.copyOf(stages);
        this.file = Objects.requireNonNull(file, "file");
        if (!OPEN.compareAndSet(false, true)) {
            throw new IllegalStateException("another RequestTracer is open: its spans and this one's would share a file");
        }
        OutputStream out = null;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            out = Files.newOutputStream(file);
        } catch (IOException | RuntimeException e) {
            OPEN.set(false);
            throw new UncheckedIOException("the trace file " + file + " could not be opened for writing: " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
        handler = new FlushedLines(out);
        handler.setErrorManager(new ErrorManager() {
            @Override
            public synchronized void error(String msg, Exception ex, int code) {
                writeFailure.compareAndSet(null, ex != null ? ex : new IOException(msg));
            }
        });
        parentHandlers = exporterLog.getUseParentHandlers();
        level = exporterLog.getLevel();
        try {
            exporterLog.setUseParentHandlers(false); // the spans go to the file, not to the console
            exporterLog.setLevel(Level.INFO);        // whatever a logging configuration says: the exporter logs at INFO
            exporterLog.addHandler(handler);
            SpanProcessor export = tracing == Tracing.EVERY_REQUEST ? SimpleSpanProcessor.create(LoggingSpanExporter.create())
                    : BatchSpanProcessor.builder(LoggingSpanExporter.create()).setMaxQueueSize(QUEUE_SPANS).build();
            provider = SdkTracerProvider.builder()
                    .setSampler(tracing == Tracing.EVERY_REQUEST ? Sampler.alwaysOn() : Sampler.traceIdRatioBased(1.0 / SAMPLE_ONE_IN))
                    .addSpanProcessor(segments).addSpanProcessor(export).build();
            tracer = provider.get("archlab.ladder");
        } catch (RuntimeException e) {
            release();
            throw e;
        }
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
            request.setAttribute(ANSWER, r.answer().get()); // WRONG: the whole answer serialised, on every request
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

    /**
     * Exports what the batch processor holds (the warm-up's spans, before the measured phase's file size is taken).
     *
     * @throws IllegalStateException when the exporter did not finish within {@value #EXPORT_WAIT_SECONDS} s
     */
    public void flush() {
        CompletableResultCode done = provider.forceFlush().join(EXPORT_WAIT_SECONDS, TimeUnit.SECONDS);
        if (!done.isSuccess()) {
            throw new IllegalStateException("the tracer's exporter did not finish within " + EXPORT_WAIT_SECONDS + " s");
        }
        handler.flush();
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

    /**
     * @return the trace file's size now, bytes
     * @throws UncheckedIOException when the file cannot be read, or a write to it failed
     */
    public long fileBytes() {
        checkWrites();
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("the trace file " + file + " could not be measured", e);
        }
    }

    /**
     * Exports what the batch processor still holds, then closes the file.
     *
     * @throws IllegalStateException when the exporter did not finish within {@value #EXPORT_WAIT_SECONDS} s (the file
     *                               is short of its last spans)
     * @throws UncheckedIOException  when a write to the file failed
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        CompletableResultCode done;
        try {
            done = provider.shutdown().join(EXPORT_WAIT_SECONDS, TimeUnit.SECONDS);
        } finally {
            release();
        }
        if (!done.isSuccess()) {
            throw new IllegalStateException("the tracer's exporter did not finish within " + EXPORT_WAIT_SECONDS
                    + " s: the trace file " + file + " is short of its last spans");
        }
        checkWrites();
    }

    private void release() {
        exporterLog.removeHandler(handler);
        exporterLog.setUseParentHandlers(parentHandlers);
        exporterLog.setLevel(level);
        handler.close();
        OPEN.set(false);
    }

    private void checkWrites() {
        Exception e = writeFailure.get();
        if (e != null) {
            throw new UncheckedIOException("a write to the trace file " + file + " failed: " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /** One span per line, as the exporter wrote it, after the time it was written; flushed at every line. */
    private static final class FlushedLines extends StreamHandler {
        FlushedLines(OutputStream out) {
            super(out, new Formatter() {
                @Override
                public String format(LogRecord record) {
                    return record.getInstant() + " " + record.getMessage() + System.lineSeparator();
                }
            });
        }

        @Override
        public synchronized void publish(LogRecord record) {
            super.publish(record);
            flush();
        }
    }
}
