package archlab.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a request body without holding a server thread while its bytes arrive (Servlet non-blocking I/O), within a
 * time limit, then hands the whole body to the request's handler on a server thread.
 *
 * <p>The trap it avoids: a blocking read ({@code getInputStream().readNBytes(…)}) holds one of the server's threads for
 * as long as the client takes to send the body. Tomcat reads headers without a thread (its poller), but a body is read
 * by the request's thread: 200 clients trickling a byte now and then hold all 200 of the article's platform threads,
 * and no one else is served. Here the thread is given back at once; the poller wakes the reader when bytes arrive, and
 * a body not complete within its limit is answered 408 and its connection closed.
 *
 * <p>Thread-safety: one instance per request; the container calls the listeners one at a time, the time-out possibly
 * racing a read: whichever answers first answers, the other does nothing.
 */
final class BodyReader implements ReadListener, AsyncListener {

    /** What to do with a complete body, on a server thread; it writes the response. */
    interface Handler {
        void handle(byte[] body, HttpServletResponse response) throws IOException;
    }

    private final AsyncContext async;
    private final ServletInputStream in;
    private final HttpServletResponse response;
    private final int maxBytes;
    private final Handler handler;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final byte[] buffer = new byte[4096];
    private final AtomicBoolean answered = new AtomicBoolean();
    private final long limitMillis;

    private BodyReader(AsyncContext async, ServletInputStream in, HttpServletResponse response, int maxBytes,
                       long limitMillis, Handler handler) {
        this.async = async;
        this.in = in;
        this.response = response;
        this.maxBytes = maxBytes;
        this.limitMillis = limitMillis;
        this.handler = handler;
    }

    /**
     * Starts reading {@code request}'s body; returns at once (the request goes on asynchronously).
     *
     * @param limit    how long the whole body may take to arrive, counted from now; positive
     * @param maxBytes the largest body accepted; a larger one is answered 413
     */
    static void read(HttpServletRequest request, HttpServletResponse response, Duration limit, int maxBytes, Handler handler)
            throws IOException {
        AsyncContext async = request.startAsync(request, response);
        long millis = Math.max(1, limit.toMillis());
        async.setTimeout(millis);
        BodyReader reader = new BodyReader(async, request.getInputStream(), response, maxBytes, millis, handler);
        async.addListener(reader);
        reader.in.setReadListener(reader);
    }

    @Override
    public void onDataAvailable() throws IOException {
        while (!answered.get() && in.isReady()) {
            int n = in.read(buffer);
            if (n < 0) {
                return;
            }
            body.write(buffer, 0, n);
            if (body.size() > maxBytes) {
                answer(413, "body over " + maxBytes + " bytes");
                return;
            }
        }
    }

    @Override
    public void onAllDataRead() throws IOException {
        if (answered.compareAndSet(false, true)) {
            try {
                handler.handle(body.toByteArray(), response);
            } finally {
                async.complete();
            }
        }
    }

    @Override
    public void onError(Throwable t) {
        answer(400, "the body could not be read: the connection failed");
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        answer(408, "the body did not arrive within " + limitMillis + " ms");
    }

    @Override
    public void onComplete(AsyncEvent event) {
    }

    @Override
    public void onError(AsyncEvent event) {
        answer(400, "the request failed while its body was read");
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
    }

    /** Answers once with a JSON error and closes the connection: the rest of a refused body is not waited for. */
    private void answer(int status, String message) {
        if (answered.compareAndSet(false, true)) {
            try {
                response.setHeader("Connection", "close");
                OrderServlet.error(response, status, message);
            } catch (IOException | RuntimeException e) {
                // the client is gone: nothing to tell it
            } finally {
                async.complete();
            }
        }
    }
}
