package archlab.profile;

/**
 * One line of a {@link TopTable}, with {@code pprof -top} semantics. Amounts are in the table's
 * {@link TopTable#unit()}; percentages are of {@link TopTable#total()} (0 to 100).
 *
 * @param method      {@code package.Class.method} (nested classes with {@code $}, as the JVM names them)
 * @param flat        weight of events whose leaf (top) frame is this method
 * @param flatPercent {@code flat} as a percentage of the table total
 * @param sumPercent  running total of {@code flatPercent} over this row and all rows above it
 * @param cum         weight of events whose stack contains this method anywhere (counted once per event,
 *                    even when the method recurses); always {@code >= flat}
 * @param cumPercent  {@code cum} as a percentage of the table total
 */
public record TopRow(String method, double flat, double flatPercent, double sumPercent, double cum, double cumPercent) {
}
