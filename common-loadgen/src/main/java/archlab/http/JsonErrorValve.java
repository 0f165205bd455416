package archlab.http;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * The host's error report, as JSON: an error Tomcat raises itself, outside {@link OrderServlet} (a servlet that threw,
 * a request the container refused), gets {@code {"error": "...", "status": N}} instead of Tomcat's HTML page, and
 * never a stack trace or the server's version. Bodies the servlet wrote are left alone.
 *
 * <p>Thread-safety: stateless; Tomcat calls it from many threads.
 */
public final class JsonErrorValve extends ErrorReportValve {

    public JsonErrorValve() {
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        try {
            String message = status == HttpServletResponse.SC_NOT_FOUND ? "no such resource"
                    : status < 500 ? "request refused by the server: not valid HTTP, or over a server limit" : "internal error";
            byte[] body = OrderServlet.JSON.writeValueAsBytes(HttpErrors.body(status, message));
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            Writer w = response.getReporter();
            if (w != null) {
                w.write(new String(body, java.nio.charset.StandardCharsets.UTF_8));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone or the response committed: nothing more to say to this client
        }
    }
}
