package archlab.ladder;

import archlab.db.ladder.OrdersSource;
import archlab.ladder.compute.OrdersPage;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The article's interface: {@code GET /users/{id}/orders?month=YYYY-MM} answers one customer's orders of one month,
 * newest first, read from an {@link OrdersSource} (on the ladder, the rung's query and lock order) and made into its
 * answer by an {@link OrdersPage} (the rung's business code: mapping, tag, JSON or protobuf, request log). The answer is written in two parts
 * — the headers flushed, then the body — as a framework that commits the headers before it serialises does: with Nagle
 * on ({@link Rung.Network#tcpNoDelay()} false) the second write waits for the client's ACK of the first.
 *
 * <p>Every request's time on the server is split into {@link ServerSegments}: waiting for a connection, the database
 * (the statements, their commit, reading their rows), and the rest of the servlet (business code: {@link OrdersPage},
 * whose stages it measures itself).
 *
 * <p>Bad input — another path, a customer id that is not a positive number, a month that is not {@code YYYY-MM},
 * another method — is answered 400 (405 for the method) with a one-line JSON error and touches nothing. A database
 * that refuses is a 503 with its one-line message, never a stack trace.
 *
 * <p>The {@code ETag} it sends is computed (the page's business code builds it) but conditional requests are not
 * served: {@code If-None-Match} is ignored, every request is answered whole.
 *
 * <p>Thread-safety: called from Tomcat's threads at once; holds no state of its own but the segments' counters and the
 * business code's (its stages' sums and its request log, both thread-safe).
 */
public final class RecentOrdersServlet extends HttpServlet {

    private static final Pattern PATH = Pattern.compile("/users/([1-9][0-9]{0,17})/orders");
    private static final Pattern MONTH = Pattern.compile("[0-9]{4}-[0-9]{2}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final transient OrdersSource orders;
    private final transient ServerSegments segments;
    private final transient OrdersPage page;

    /**
     * @param orders   where the orders are read (the rung's query: {@code archlab.db.ladder.LadderDatabase#orders})
     * @param segments where each answered request's times are summed
     * @param page     the business code that makes the rows an answer (the rung's {@code Compute})
     */
    public RecentOrdersServlet(OrdersSource orders, ServerSegments segments, OrdersPage page) {
        this.orders = Objects.requireNonNull(orders, "orders");
        this.segments = Objects.requireNonNull(segments, "segments");
        this.page = Objects.requireNonNull(page, "page");
    }

    /** @return the request's path for {@code customer}'s orders of {@code month} */
    public static String path(long customer, YearMonth month) {
        return "/users/" + customer + "/orders?month=" + month;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        segments.begin();
        try {
            answer(request, response);
        } finally {
            segments.end();
        }
    }

    private void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long start = System.nanoTime();
        if (!"GET".equals(request.getMethod())) {
            response.setHeader("Allow", "GET");
            error(response, 405, "only GET /users/{id}/orders?month=YYYY-MM is served");
            return;
        }
        Matcher m = PATH.matcher(request.getRequestURI());
        if (!m.matches()) {
            error(response, 400, "the path must be /users/{id}/orders with a positive id");
            return;
        }
        YearMonth month;
        try {
            String text = request.getParameter("month");
            if (text == null || !MONTH.matcher(text).matches()) {
                error(response, 400, "month must be YYYY-MM");
                return;
            }
            month = YearMonth.parse(text);
        } catch (DateTimeParseException e) {
            error(response, 400, "month must be YYYY-MM, a real month");
            return;
        }
        long customer = Long.parseLong(m.group(1));
        OrdersSource.Read read;
        // the pool may start a thread from here (HikariCP's connection adder): it must not inherit Tomcat's web-app class
        // loader, which would make Tomcat report the pool's threads as the web app's leak at every stop
        Thread thread = Thread.currentThread();
        ClassLoader webApp = thread.getContextClassLoader();
        thread.setContextClassLoader(RecentOrdersServlet.class.getClassLoader());
        long readStart = System.nanoTime();
        try {
            read = orders.read(customer, month);
        } catch (OrdersSource.Refused e) {
            error(response, 503, e.getMessage());
            return;
        } finally {
            thread.setContextClassLoader(webApp);
        }
        // the trace's database span: the pool's wait and the database's time as the read measured them
        OrdersPage.Answer answer = page.answer(customer, month, read.orders(), new OrdersPage.Received(start, readStart,
                readStart + read.connectionWaitNanos() + read.databaseNanos()));
        byte[] body = answer.body();
        response.setStatus(200);
        response.setContentType(answer.mediaType());
        response.setHeader("ETag", answer.tag());
        response.setContentLength(body.length);
        // tag::two-part-write[]
        response.flushBuffer();                 // the first write: the status line and the headers
        OutputStream out = response.getOutputStream();
        out.write(body);                        // the second: the body, small, right behind
        out.flush();
        // end::two-part-write[]
        segments.record(System.nanoTime() - start, read.connectionWaitNanos(), read.databaseNanos());
    }

    private static void error(HttpServletResponse response, int status, String message) throws IOException {
        byte[] body = JSON.writeValueAsBytes(Map.of("error", message));
        response.setStatus(status);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
