package archlab.compare;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a run report says about its store: whether it ran on PostgreSQL (its {@code store} line) and the figures of
 * its {@code db_pool} line ({@code archlab.db.PoolFigures}), for the rows of a {@link SideBySide} that lays a run in
 * memory beside the same run on PostgreSQL.
 *
 * <p>Thread-safety: stateless.
 */
final class PoolLine {

    private static final Pattern WAIT = Pattern.compile("connection_wait p50=([0-9.]+)ms p99=([0-9.]+)ms");
    private static final Pattern WAITING_MAX = Pattern.compile("\\bwaiting_max=(\\d+)");

    private PoolLine() {
    }

    /** @return "postgres" when the report has a {@code store} line, else "memory" */
    static String store(JsonNode report) {
        return line(report, "store") == null ? "memory" : "postgres";
    }

    /** @return the connection wait's p50 (ms) of the {@code db_pool} line; null without one */
    static Double waitP50Millis(JsonNode report) {
        return group(report, WAIT, 1);
    }

    /** @return the connection wait's p99 (ms) of the {@code db_pool} line; null without one */
    static Double waitP99Millis(JsonNode report) {
        return group(report, WAIT, 2);
    }

    /** @return the most threads that waited for a connection at once; null without a {@code db_pool} line */
    static Double waitingMax(JsonNode report) {
        return group(report, WAITING_MAX, 1);
    }

    private static Double group(JsonNode report, Pattern pattern, int group) {
        String pool = line(report, "db_pool");
        if (pool == null) {
            return null;
        }
        Matcher m = pattern.matcher(pool);
        return m.find() ? Double.valueOf(m.group(group)) : null;
    }

    private static String line(JsonNode report, String name) {
        for (JsonNode line : report.path("extra")) {
            if (name.equals(line.path("name").asText()) && line.path("value").isTextual()) {
                return line.path("value").asText();
            }
        }
        return null;
    }
}
