package archlab.report;

/**
 * A chapter-specific figure added to a report (outbox depth, cache hit ratio…), printed as {@code name=value}
 * in the lab's lines and kept in the JSON under {@code extra}.
 *
 * @param name  a short key, e.g. "cache_hit_ratio"
 * @param value a number or a short string
 */
public record ReportLine(String name, Object value) {
}
