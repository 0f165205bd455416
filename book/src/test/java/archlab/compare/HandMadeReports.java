package archlab.compare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Minimal run-report JSON written by hand, with only the fields the side-by-side table and the p99 gate read. */
final class HandMadeReports {

    private HandMadeReports() {
    }

    /** A latency object: count, p50/p99/p999 in µs. */
    static String latency(long count, long p50Micros, long p99Micros, long p999Micros) {
        return String.format(Locale.ROOT, "{\"count\": %d, \"p50Micros\": %d, \"p99Micros\": %d, \"p999Micros\": %d}",
                count, p50Micros, p99Micros, p999Micros);
    }

    /**
     * A report with one operation "pay" (and optionally "get"), money figures, two traced lock.wait segments,
     * a profile and extras.
     */
    static String report(String module, String name, long offered, long completed, long allP99Micros, long payP99Micros,
                         Long getP99Micros, boolean withProfile) {
        String ops = "\"pay\": {\"latency\": " + latency(completed / 2, 5_000, payP99Micros, payP99Micros + 1_000) + "}"
                + (getP99Micros == null ? "" : ", \"get\": {\"latency\": " + latency(completed / 2, 40, getP99Micros, getP99Micros * 2) + "}");
        String profile = withProfile
                ? "{\"text\": [], \"jfrFile\": \"x.jfr\", \"json\": {\"lockWaitByBlocker\": {\"a.Lock\": 2000000, \"b.Lock\": 500000},"
                  + " \"gc\": {\"allocatedBytesEstimate\": " + offered * 2048 + "}}}"
                : "null";
        return """
                {
                  "module": "%s",
                  "name": "%s",
                  "environment": {"at": "2026-12-02T10:00:00Z", "session": "s1"},
                  "run": {
                    "offered": %d, "completed": %d, "timedOut": %d, "failed": 1, "rejected": 2, "wallNanos": 2000000000,
                    "latency": %s,
                    "sendLag": {"p99Micros": 1500},
                    "hiccups": {"samples": 3000, "p99Micros": 2500},
                    "operations": {%s},
                    "segments": [
                      {"operation": "pay", "segment": "lock.wait", "selfTotalNanos": 3000000},
                      {"operation": "get", "segment": "lock.wait", "selfTotalNanos": 1500000},
                      {"operation": "pay", "segment": "payment", "selfTotalNanos": 9000000}
                    ]
                  },
                  "money": {"chargedButNotPaid": 4, "doubleCharges": 0},
                  "extra": [
                    {"name": "downstream_latency", "value": "inventory=2ms"},
                    {"name": "cache_hit_ratio", "value": 0.25},
                    {"name": "outbox_drained", "value": true}
                  ],
                  "profile": %s
                }
                """.formatted(module, name, offered, completed, offered - completed - 3,
                latency(completed, 1_000, allP99Micros, allP99Micros + 500), ops, profile);
    }

    static Path write(Path dir, String fileName, String json) {
        try {
            Files.createDirectories(dir);
            return Files.writeString(dir.resolve(fileName), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
