package archlab.ladder.compute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/**
 * The interface's request log on Log4j 2, in a logger context of its own (one per served ladder rung, configured here,
 * nothing read from the class path), writing to one file: the way a {@link Compute.Logging} says.
 * <ul>
 * <li>{@link Compute.Logging#WHOLE_ANSWER_SYNC} — WRONG: every request serialises its whole answer to JSON for an INFO
 *     line, and the line is written to the file by the request's own thread (a file appender flushed at every event,
 *     under the appender's lock).</li>
 * <li>{@link Compute.Logging#SAMPLED_KEYS_ASYNC} — RIGHT: one request in {@value #SAMPLE_ONE_IN}, drawn at random,
 *     logs its key fields (customer, month, orders, bytes); the line goes into the asynchronous appender's queue and
 *     its own thread writes it. A full queue drops the line rather than hold the request.</li>
 * </ul>
 *
 * <p>Thread-safe (Log4j 2's loggers are). {@link #close} stops the context, writing what the queue still holds.
 */
public final class RequestLog implements AutoCloseable {

    /** The fast side's sample: one request in this many is logged. */
    public static final int SAMPLE_ONE_IN = 100;
    /** The asynchronous appender's queue, in events. */
    public static final int QUEUE_EVENTS = 1024;

    private final Compute.Logging logging;
    private final LoggerContext context;
    private final Logger logger;
    private final Path file;

    /**
     * @param name    the context's name and the file's: {@code <dir>/<name>.log}, written afresh
     * @param dir     where the file goes (created when missing)
     * @param logging what each request logs, and how
     * @return the log
     */
    public static RequestLog in(Path dir, String name, Compute.Logging logging) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("could not create the request log's folder " + dir, e);
        }
        return new RequestLog(name, dir.resolve(name + ".log"), logging);
    }

    /**
     * @param name    the logger context's name
     * @param file    the file, written afresh (a benchmark passes {@code /dev/null}: every write made, none kept)
     * @param logging what each request logs, and how
     */
    public RequestLog(String name, Path file, Compute.Logging logging) {
        this.logging = java.util.Objects.requireNonNull(logging, "logging");
        this.file = file;
        this.context = new LoggerContext("archlab-ladder-" + name);
        context.start(configuration(name, file, logging));
        // Log4j reports an appender it could not build (a folder it may not write) on its status logger and drops
        // every event: a log that writes nothing would read as the cheapest log of all
        if (context.getConfiguration().getAppender("file") == null
                || logging == Compute.Logging.SAMPLED_KEYS_ASYNC && !asynchronous()) {
            context.stop();
            throw new IllegalStateException("the request log could not open " + file + " for writing");
        }
        this.logger = context.getLogger("archlab.ladder.requests");
    }

    // tag::request-log[]
    /** Logs one answered request, the way this log's {@link Compute.Logging} says. */
    public void answered(long customer, YearMonth month, OrdersBody.Page page, int bodyBytes) {
        if (logging == Compute.Logging.WHOLE_ANSWER_SYNC) {
            // WRONG: the whole answer as JSON on every request, written by this thread before it answers
            logger.info("answered user={} month={} page={}", customer, month,
                    new String(OrdersBody.json(page), java.nio.charset.StandardCharsets.UTF_8));
        } else if (ThreadLocalRandom.current().nextInt(SAMPLE_ONE_IN) == 0) {
            // RIGHT: one in a hundred, its key fields, queued for the appender's thread
            logger.info("answered user={} month={} orders={} bytes={}", customer, month, page.orders().size(), bodyBytes);
        }
    }
    // end::request-log[]

    /** @return whether the logger writes through an asynchronous appender (a queue and a thread of its own) */
    public boolean asynchronous() {
        return context.getConfiguration().getAppender("async") instanceof org.apache.logging.log4j.core.appender.AsyncAppender a
                && a.isStarted();
    }

    /** @return the log's file */
    public Path file() {
        return file;
    }

    /** @return the file's size now, bytes (0 when it is missing) */
    public long fileBytes() {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        context.stop(5, TimeUnit.SECONDS);
    }

    private static Configuration configuration(String name, Path file, Compute.Logging logging) {
        ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
        b.setConfigurationName("archlab-ladder-" + name);
        b.setStatusLevel(Level.ERROR);
        b.add(b.newAppender("file", "File").addAttribute("fileName", file.toString()).addAttribute("append", false)
                .addAttribute("immediateFlush", true)
                .add(b.newLayout("PatternLayout").addAttribute("pattern", "%d{ISO8601} %-5level [%t] %c - %m%n")));
        String target = "file";
        if (logging == Compute.Logging.SAMPLED_KEYS_ASYNC) {
            b.add(b.newAppender("async", "Async").addAttribute("bufferSize", QUEUE_EVENTS).addAttribute("blocking", false)
                    .addComponent(b.newAppenderRef("file")));
            target = "async";
        }
        b.add(b.newRootLogger(Level.INFO).add(b.newAppenderRef(target)));
        return b.build(false);
    }
}
