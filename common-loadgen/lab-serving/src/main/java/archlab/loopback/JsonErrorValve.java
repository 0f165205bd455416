package archlab.loopback;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * The host's error report, as JSON: an error Tomcat raises itself, outside the servlet (a servlet that threw, a
 * request the container refused), gets the server's own JSON error body ({@link ErrorBody}) instead of Tomcat's HTML
 * page, and never a stack trace or the server's version. Bodies the servlet wrote are left alone.
 *
 * <p>Thread-safety: immutable; Tomcat calls it from many threads.
 */
public final class JsonErrorValve extends ErrorReportValve {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The JSON body a server answers an error with, so that Tomcat's own errors look like the servlet's. */
    @FunctionalInterface
    public interface ErrorBody {

        /**
         * @param status  the HTTP status, 400..599
         * @param message what went wrong, one line, for the client; never a stack trace
         * @return the body, as Jackson serialises it (a map, a record)
         */
        Object of(int status, String message);
    }

    private final ErrorBody body;

    /** @param body the body every error Tomcat raises itself is answered with */
    public JsonErrorValve(ErrorBody body) {
        this.body = Objects.requireNonNull(body, "body");
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
            String message = switch (status) {
                case HttpServletResponse.SC_NOT_FOUND -> "no such resource";
                case HttpServletResponse.SC_NOT_IMPLEMENTED -> "not implemented: a transfer coding or method this server does not know";
                default -> status < 500 ? "request refused by the server: not valid HTTP, or over a server limit" : "internal error";
            };
            byte[] bytes = bytesOf(body.of(status, message));
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            Writer w = response.getReporter();
            if (w != null) {
                w.write(new String(bytes, StandardCharsets.UTF_8));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone or the response committed: nothing more to say to this client
        }
    }

    private static byte[] bytesOf(Object value) throws JsonProcessingException {
        return JSON.writeValueAsBytes(value);
    }
}
