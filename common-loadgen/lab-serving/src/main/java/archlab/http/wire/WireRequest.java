package archlab.http.wire;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * One HTTP/1.1 request, encoded to bytes once, before a run: request line, {@code Host}, the deadline header and the
 * body (no {@code Connection} header: HTTP/1.1 keeps the connection alive unless a side says otherwise). Sending it copies those bytes into the connection's own buffer and writes the request's
 * remaining deadline into a fixed-width field ({@value #DEADLINE_DIGITS} digits, zero-padded), so a request on the wire
 * costs no encoding and no allocation ({@link #encodeInto}).
 *
 * <p>The trap it avoids: building each request from strings (a request builder, headers in a map, a URI resolved per
 * call) costs more than the server's answer to a no-op; a generator that does it measures its own encoder.
 *
 * <p>Immutable; thread-safe.
 */
public final class WireRequest {

    /** The header the deadline travels in: the server's. */
    public static final String DEADLINE_HEADER = archlab.http.HttpOrderTarget.DEADLINE_HEADER;
    /** Width of the deadline field: 5 digits. */
    public static final int DEADLINE_DIGITS = 5;
    /** The longest deadline written: what the server takes ({@link archlab.http.OrderHttpServer#MAX_DEADLINE_MS}). */
    public static final long MAX_DEADLINE_MS = archlab.http.OrderHttpServer.MAX_DEADLINE_MS;
    /** A path: begins with '/', then printable ASCII without spaces (nothing that could end the request line). */
    private static final Pattern PATH = Pattern.compile("/[\\x21-\\x7e]*");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._-]+");

    private final String operation;
    private final byte[] bytes;
    private final int deadlineAt;

    private WireRequest(String operation, byte[] bytes, int deadlineAt) {
        this.operation = operation;
        this.bytes = bytes;
        this.deadlineAt = deadlineAt;
    }

    /**
     * {@code GET path}.
     *
     * @param operation the name the report counts it under (letters, digits, {@code ._-})
     * @param host      the {@code Host} header, e.g. {@code 127.0.0.1:8080}
     * @throws IllegalArgumentException for a path or name that would not make one well-formed request
     */
    public static WireRequest get(String operation, String host, String path) {
        return encode(operation, "GET", host, path, null);
    }

    /**
     * {@code POST path} with a JSON body ({@code null}: an empty body, {@code Content-Length: 0}).
     *
     * @throws IllegalArgumentException as for {@link #get}
     */
    public static WireRequest post(String operation, String host, String path, String jsonBody) {
        return encode(operation, "POST", host, path, jsonBody);
    }

    private static WireRequest encode(String operation, String method, String host, String path, String body) {
        if (operation == null || !TOKEN.matcher(operation).matches()) {
            throw new IllegalArgumentException("operation must be letters, digits or ._- : " + operation);
        }
        if (path == null || !PATH.matcher(path).matches()) {
            throw new IllegalArgumentException("path must begin with '/' and hold printable ASCII only, no spaces: " + path);
        }
        if (host == null || !PATH.matcher("/" + host).matches()) {
            throw new IllegalArgumentException("host must be printable ASCII, no spaces: " + host);
        }
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n"
                + (content.length > 0 ? "Content-Type: application/json\r\n" : "")
                + (method.equals("GET") ? "" : "Content-Length: " + content.length + "\r\n")
                + DEADLINE_HEADER + ": ";
        String tail = "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[headBytes.length + DEADLINE_DIGITS + tail.length() + content.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        for (int i = 0; i < DEADLINE_DIGITS; i++) {
            all[headBytes.length + i] = '0';
        }
        byte[] tailBytes = tail.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(tailBytes, 0, all, headBytes.length + DEADLINE_DIGITS, tailBytes.length);
        System.arraycopy(content, 0, all, headBytes.length + DEADLINE_DIGITS + tailBytes.length, content.length);
        return new WireRequest(operation, all, headBytes.length);
    }

    /** @return the name the report counts it under */
    public String operation() {
        return operation;
    }

    /** @return the request's length on the wire, bytes */
    public int length() {
        return bytes.length;
    }

    /** @return a copy of the request's bytes, with the deadline field as 0 */
    public byte[] bytes() {
        return bytes.clone();
    }

    /**
     * Clears {@code buf} and writes this request into it with {@code deadlineMillis} in its deadline field (clamped to
     * 1..{@link #MAX_DEADLINE_MS}, what the server takes). Allocates nothing when {@code buf} already has room for {@link #length()} bytes.
     */
    public void encodeInto(ByteBuf buf, long deadlineMillis) {
        buf.clear();
        buf.writeBytes(bytes);
        long v = Math.max(1, Math.min(MAX_DEADLINE_MS, deadlineMillis));
        for (int i = deadlineAt + DEADLINE_DIGITS - 1; i >= deadlineAt; i--) {
            buf.setByte(i, (int) ('0' + v % 10));
            v /= 10;
        }
    }

    /** @return e.g. {@code noop: GET /noop HTTP/1.1}: its name and request line */
    @Override
    public String toString() {
        int end = 0;
        while (end < bytes.length && bytes[end] != '\r') {
            end++;
        }
        return operation + ": " + new String(bytes, 0, end, StandardCharsets.US_ASCII);
    }
}
